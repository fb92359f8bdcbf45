import { describe, expect, it } from 'vitest';
import { initialPageSchema, INITIAL_PAGE_PLACEHOLDER } from '../shared/explorer-api.ts';
import { initialPageLookup, initialPageScript, injectInitialPage } from './initial-page.ts';

const PLAYLIST = 'PLcatalogueDemoPlaylist0101items00';
const CHANNEL = 'UCcatalogueDemoChannel01';
const lookup = (path: string) => {
  const url = new URL(path, 'http://x');
  return initialPageLookup(url.pathname, url.searchParams);
};

describe('deep links and their first page', () => {
  it.each([
    [`/playlist/${PLAYLIST}`, 'playlist', PLAYLIST],
    [`/playlist/${PLAYLIST}/?index=50`, 'playlist', PLAYLIST],
    [`/channel/${CHANNEL}`, 'channel-videos', CHANNEL],
    [`/channel/${CHANNEL}/videos`, 'channel-videos', CHANNEL],
    [`/channel/${CHANNEL}/playlists`, 'channel-playlists', CHANNEL],
    [`/playlist?list=${PLAYLIST}`, 'playlist', PLAYLIST],
    [`/watch?v=dQw4w9WgXcQ&list=${PLAYLIST}&index=3`, 'playlist', PLAYLIST],
  ])('%s → %s', (path, endpoint, id) => {
    expect(lookup(path)).toEqual({ endpoint, id, continuation: undefined });
  });

  it.each([
    '/',
    '/playlist/nope',
    `/channel/${PLAYLIST}`,
    '/watch?v=dQw4w9WgXcQ',
    '/playlist/%E0%A4%A',
    `/elsewhere/${PLAYLIST}`,
  ])('%s has no first page to ship', (path) => {
    expect(lookup(path)).toBeNull();
  });

  it('writes a block the app can read, which no data can close', () => {
    const page = Buffer.from(
      JSON.stringify({
        items: [{ title: '</script><script>alert(1)</script><!--' }],
        continuation: null,
      }),
    );
    const script = initialPageScript(
      { endpoint: 'playlist', id: PLAYLIST, continuation: undefined },
      page,
    );
    expect(script.startsWith('<script type="application/json" id="initial-page">')).toBe(true);
    const inner = script.slice(script.indexOf('>') + 1, -'</script>'.length);
    expect(inner).not.toContain('<');
    const parsed = initialPageSchema.parse(JSON.parse(inner));
    expect(parsed).toEqual({
      endpoint: 'playlist',
      id: PLAYLIST,
      page: JSON.parse(page.toString()),
    });

    const html = `<body>${INITIAL_PAGE_PLACEHOLDER}<script src="/a.js"></script></body>`;
    const withDollar = initialPageScript(
      { endpoint: 'playlist', id: PLAYLIST, continuation: undefined },
      Buffer.from('{"t":"$& $1"}'),
    );
    expect(injectInitialPage(html, withDollar)).toBe(
      `<body>${withDollar}<script src="/a.js"></script></body>`,
    );
  });
});
