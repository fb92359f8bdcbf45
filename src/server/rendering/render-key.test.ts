import { describe, expect, it } from 'vitest';
import { renderAddress } from './render-key.ts';

const PLAYLIST = 'PLcatalogueDemoPlaylist5000items00';
const CHANNEL = 'UCcatalogueDemoChannel01';
const at = (path: string) => renderAddress(new URL(path, 'http://explorer.test'));

describe('the render key: only what changes the server’s render', () => {
  it('1,000 different unknown parameters are one key and one rendered path', () => {
    const keys = new Set<string>();
    const paths = new Set<string>();
    for (let n = 0; n < 1000; n++) {
      const address = at(`/playlist/${PLAYLIST}?utm_source=${n}&fbclid=x${n}`);
      keys.add(address.key);
      paths.add(address.path);
    }
    expect([...keys]).toEqual([at(`/playlist/${PLAYLIST}`).key]);
    expect([...paths]).toEqual([`/playlist/${PLAYLIST}`]);
  });

  it('keeps a playlist’s deep link, `index` winning over `v`, in one spelling', () => {
    expect(at(`/playlist/${PLAYLIST}?index=0042&x=1`).path).toBe(`/playlist/${PLAYLIST}?index=42`);
    expect(at(`/playlist/${PLAYLIST}?v=dQw4w9WgXcQ&index=7`).path).toBe(
      `/playlist/${PLAYLIST}?index=7`,
    );
    expect(at(`/playlist/${PLAYLIST}?v=dQw4w9WgXcQ`).path).toBe(
      `/playlist/${PLAYLIST}?v=dQw4w9WgXcQ`,
    );
    // What the app cannot read as a target, it does not read: the plain view.
    for (const query of ['index=0', 'index=abc', 'index=1234567', 'v=short', 'v='])
      expect(at(`/playlist/${PLAYLIST}?${query}`).key).toBe(at(`/playlist/${PLAYLIST}`).key);
    expect(at(`/playlist/${PLAYLIST}?index=2`).key).not.toBe(
      at(`/playlist/${PLAYLIST}?index=3`).key,
    );
  });

  it('one spelling of a path: percent-escapes and a trailing slash name the same view', () => {
    const plain = at(`/playlist/${PLAYLIST}`);
    expect(at(`/playlist/%50%4C${PLAYLIST.slice(2)}/`)).toEqual(plain);
    expect(at(`/channel/${CHANNEL}/`).key).toBe(at(`/channel/${CHANNEL}`).key);
    // The channel's two addresses of its videos stay two (the app's tabs link one of them).
    expect(at(`/channel/${CHANNEL}/videos`).key).not.toBe(at(`/channel/${CHANNEL}`).key);
  });

  it('whether the Whole list panel opens, not which choices it opens with', () => {
    const shut = at(`/channel/${CHANNEL}?sort=sideways&from=0`);
    expect(shut).toEqual(at(`/channel/${CHANNEL}`));
    const byFind = at(`/playlist/${PLAYLIST}?q=jazz&utm=1`);
    const bySort = at(`/playlist/${PLAYLIST}?sort=views&from=60&to=20`);
    expect(byFind.key).toBe(bySort.key);
    expect(byFind.key).not.toBe(at(`/playlist/${PLAYLIST}`).key);
    // The app is given the choices it would read itself, without the rest.
    expect(byFind.path).toBe(`/playlist/${PLAYLIST}?q=jazz`);
    expect(bySort.path).toBe(`/playlist/${PLAYLIST}?sort=views&from=20&to=60`);
    expect(at(`/playlist/${PLAYLIST}?index=5&q=a`).path).toBe(`/playlist/${PLAYLIST}?index=5&q=a`);
  });

  it('the platform’s forms keep what their not-found message reads; unknown paths their path', () => {
    expect(at('/watch?v=dQw4w9WgXcQ&list=WL&t=42s').path).toBe('/watch?list=WL&v=dQw4w9WgXcQ');
    expect(at('/playlist?list=bad!&si=abc').path).toBe('/playlist?list=bad%21');
    expect(at('/playlist?v=dQw4w9WgXcQ').path).toBe('/playlist');
    expect(at('/nope/x?utm=1').path).toBe('/nope/x');
    expect(at('/?utm=1').key).toBe(at('/').key);
    // The home box's value sent without scripts: the view shows it and why it cannot open.
    expect(at('/?target=abc&utm=1').path).toBe('/?target=abc');
  });

  it('keys carry the language the HTML is written in', () => {
    const url = new URL(`/playlist/${PLAYLIST}`, 'http://explorer.test');
    expect(renderAddress(url, 'de').key).not.toBe(renderAddress(url).key);
    expect(renderAddress(url, 'de').path).toBe(renderAddress(url).path);
  });
});

describe('the render key and the screen', () => {
  it('a phone’s render (fewer rows) is kept apart from the others, at the same path', () => {
    const url = new URL('/playlist/PLabc?utm_source=x', 'http://explorer.test');
    const narrow = renderAddress(url, 'en', 'narrow');
    expect(narrow.key).not.toBe(renderAddress(url, 'en', 'wide').key);
    expect(narrow.path).toBe(renderAddress(url).path);
    // Wide is what a request that says nothing gets.
    expect(renderAddress(url, 'en', 'wide').key).toBe(renderAddress(url).key);
  });
});

describe('the render key and the language', () => {
  it('keys on the page’s language, never on how it was chosen', () => {
    const url = (path: string) => new URL(path, 'http://explorer.test');
    const english = renderAddress(url(`/playlist/${PLAYLIST}`), 'en');
    const japanese = renderAddress(url(`/playlist/${PLAYLIST}`), 'ja');
    expect(japanese.key).not.toBe(english.key);
    expect(japanese.path).toBe(english.path);
    // `?hl=ja` and a browser asking for Japanese render alike: `hl` is not in the rendered path.
    expect(renderAddress(url(`/playlist/${PLAYLIST}?hl=ja`), 'ja')).toEqual(japanese);
  });
});
