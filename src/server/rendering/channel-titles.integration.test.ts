import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  continuationAfter,
  GUEST_ID,
  GUEST_TITLE,
  OWNER_ID,
  OWNER_TITLE,
  PLAYLIST_ID,
  previewCataloguePage,
} from '../../test-support/preview-fixtures.ts';
import { realPageSource } from '../../test-support/real-page-source.ts';
import {
  pagesFrom,
  startTestUpstream,
  type TestUpstream,
} from '../../test-support/test-upstream.ts';
import { createChannelTitles } from './channel-titles.ts';

// The channel-title index: fed by the page source with every page it gets from the upstream
// (the data its schema check already parsed), bounded, least recently seen out.

const id = (n: number) => `UC${String(n).padStart(22, '0')}`;

describe('the channel-title index', () => {
  it('keeps the last name given for a channel, and only well-formed IDs and real names', () => {
    const titles = createChannelTitles();
    titles.remember(id(1), 'First name');
    titles.remember(id(1), '  Second name 🎬 ');
    titles.remember('UCshort', 'Not a channel ID');
    titles.remember(id(2), '   ');
    titles.remember(id(3), 'x'.repeat(301));
    expect(titles.get(id(1))).toBe('Second name 🎬');
    expect(titles.get('UCshort')).toBeUndefined();
    expect(titles.get(id(2))).toBeUndefined();
    expect(titles.get(id(3))).toBeUndefined();
    expect(titles.size).toBe(1);
  });

  it('is bounded: the channel seen least recently goes first', () => {
    const titles = createChannelTitles({ maxEntries: 3 });
    for (const n of [1, 2, 3]) titles.remember(id(n), `Channel ${n}`);
    expect(titles.get(id(1))).toBe('Channel 1'); // seen again: now the most recent
    titles.remember(id(4), 'Channel 4');
    expect(titles.size).toBe(3);
    expect(titles.get(id(2))).toBeUndefined();
    expect([1, 3, 4].map((n) => titles.get(id(n)))).toEqual([
      'Channel 1',
      'Channel 3',
      'Channel 4',
    ]);
  });

  it('learns from playlist pages only: their info and their items', () => {
    const titles = createChannelTitles();
    titles.learnFromPage(
      { endpoint: 'channel-playlists' },
      {
        items: [{ id: 'PLx', title: OWNER_TITLE, thumbnails: [], url: '', videoCount: 1 }],
        continuation: null,
      },
    );
    expect(titles.size).toBe(0);
  });
});

describe('fed by the page source', () => {
  let upstream: TestUpstream;
  beforeAll(async () => {
    upstream = await startTestUpstream(pagesFrom(previewCataloguePage));
  });
  afterAll(() => upstream.close());

  it('every playlist page that arrives names its channels: first pages and later ones', async () => {
    const titles = createChannelTitles();
    const { pageSource, close } = realPageSource(upstream.url, { onPage: titles.learnFromPage });
    const get = (continuation?: string) =>
      pageSource.get({ endpoint: 'playlist', id: PLAYLIST_ID, continuation }, 'client');
    await get();
    expect(titles.get(OWNER_ID)).toBe(OWNER_TITLE);
    expect(titles.get(GUEST_ID)).toBeUndefined();
    await get(continuationAfter(1)); // no `info`: the guest is named by its items only
    expect(titles.get(GUEST_ID)).toBe(GUEST_TITLE);
    // Channel pages carry no names; a failed lookup feeds nothing.
    await pageSource.get(
      { endpoint: 'channel-videos', id: OWNER_ID, continuation: undefined },
      'c',
    );
    await pageSource.get(
      { endpoint: 'playlist', id: 'PLdoesNotExist000000000', continuation: undefined },
      'c',
    );
    expect(titles.size).toBe(2);
    await close();
  });

  it('a hook that throws costs nobody the page', async () => {
    const { pageSource, close } = realPageSource(upstream.url, {
      onPage: () => {
        throw new Error('index broken');
      },
    });
    const answer = await pageSource.get(
      { endpoint: 'playlist', id: PLAYLIST_ID, continuation: undefined },
      'client',
    );
    expect(answer).toMatchObject({ kind: 'page', cache: 'miss' });
    await close();
  });
});
