import { setupI18n } from '@lingui/core';
import { describe, expect, it } from 'vitest';
import { readIndex } from './app-routes.ts';
import { compileCatalog } from './i18n/catalog-files.ts';
import { pathFor, readPath, readUserInput, type ViewTarget } from './view-target.ts';

const PL = 'PLcatalogueDemoPlaylist5000items00';
const UC = 'UCcatalogueDemoChannel01';

// The refusals are catalog messages; read here as an English reader sees them.
const english = setupI18n({ locale: 'en', messages: { en: compileCatalog('en') } });

function target(input: string, ownHost?: string): ViewTarget {
  const read = readUserInput(input, ownHost);
  if (!read.ok) throw new Error(`expected ${input} to be read, got: ${read.message.id}`);
  return read.target;
}

function message(input: string): string {
  const read = readUserInput(input);
  if (read.ok) throw new Error(`expected ${input} to be refused`);
  return english._(read.message);
}

describe('readUserInput', () => {
  it('reads bare IDs, channel IDs before the looser playlist shape', () => {
    expect(target(PL)).toEqual({ kind: 'playlist', id: PL });
    expect(target(`  ${PL}\n`)).toEqual({ kind: 'playlist', id: PL });
    expect(target(UC)).toEqual({ kind: 'channel', id: UC, tab: 'videos' });
    expect(target('UUcatalogueDemoChannel01abc')).toEqual({
      kind: 'playlist',
      id: 'UUcatalogueDemoChannel01abc',
    });
  });

  it('reads the platform’s playlist, watch and channel URLs on every host variant', () => {
    expect(target(`https://www.youtube.com/playlist?list=${PL}`)).toEqual({
      kind: 'playlist',
      id: PL,
    });
    expect(target(`youtube.com/playlist?list=${PL}`)).toEqual({ kind: 'playlist', id: PL });
    expect(target(`https://m.youtube.com/playlist?list=${PL}&si=abc`)).toEqual({
      kind: 'playlist',
      id: PL,
    });
    expect(target(`https://www.youtube.com/watch?v=dQw4w9WgXcQ&list=${PL}`)).toEqual({
      kind: 'playlist',
      id: PL,
      videoId: 'dQw4w9WgXcQ',
    });
    expect(target(`https://www.youtube.com/watch?v=dQw4w9WgXcQ&list=${PL}&index=2345`)).toEqual({
      kind: 'playlist',
      id: PL,
      index: 2345,
      videoId: 'dQw4w9WgXcQ',
    });
    expect(target(`https://youtu.be/dQw4w9WgXcQ?list=${PL}&index=7`)).toEqual({
      kind: 'playlist',
      id: PL,
      index: 7,
      videoId: 'dQw4w9WgXcQ',
    });
    expect(target(`https://www.youtube.com/channel/${UC}`)).toEqual({
      kind: 'channel',
      id: UC,
      tab: 'videos',
    });
    expect(target(`https://www.youtube.com/channel/${UC}/videos`)).toEqual({
      kind: 'channel',
      id: UC,
      tab: 'videos',
    });
    expect(target(`https://m.youtube.com/channel/${UC}/playlists/`)).toEqual({
      kind: 'channel',
      id: UC,
      tab: 'playlists',
    });
  });

  it('reads the explorer’s own URLs on its own host only', () => {
    expect(target(`http://localhost:8080/playlist/${PL}?index=12`, 'localhost:8080')).toEqual({
      kind: 'playlist',
      id: PL,
      index: 12,
    });
    expect(target(`http://localhost:8080/channel/${UC}/playlists`, 'localhost:8080')).toEqual({
      kind: 'channel',
      id: UC,
      tab: 'playlists',
    });
    expect(readUserInput(`https://example.com/playlist?list=${PL}`).ok).toBe(false);
  });

  it('explains what it cannot read', () => {
    expect(message('')).toMatch(/Paste/);
    expect(message('hello world')).toMatch(/neither/);
    expect(message('dQw4w9WgXcQ')).toMatch(/single video/);
    expect(message('https://www.youtube.com/watch?v=dQw4w9WgXcQ')).toMatch(/single video/);
    expect(message('https://youtu.be/dQw4w9WgXcQ')).toMatch(/single video/);
    expect(message('https://www.youtube.com/@somebody')).toMatch(/handles/);
    expect(message('https://www.youtube.com/playlist?list=WL')).toMatch(/private/);
    expect(message('https://www.youtube.com/playlist?list=bad!')).toMatch(/not a playlist ID/);
    expect(message('https://www.youtube.com/feed/trending')).toMatch(
      /neither a playlist nor a channel/,
    );
    expect(message('ftp://youtube.com/playlist?list=x')).toMatch(/neither/);
    expect(message('https://vimeo.com/123')).toMatch(/vimeo\.com/);
  });
});

describe('readPath', () => {
  it('reads the platform forms with our host', () => {
    expect(readPath('/playlist', `?list=${PL}`)).toEqual({
      ok: true,
      target: { kind: 'playlist', id: PL },
    });
    expect(readPath('/watch', `?v=dQw4w9WgXcQ&list=${PL}&index=3`)).toEqual({
      ok: true,
      target: { kind: 'playlist', id: PL, index: 3, videoId: 'dQw4w9WgXcQ' },
    });
    expect(readPath('/playlist/', '?list=')).toMatchObject({ ok: false });
    expect(readPath('/about', '')).toBeNull();
  });

  it('reads the explorer’s own routes, and refuses IDs of the wrong shape', () => {
    expect(readPath(`/playlist/${PL}/`, '?index=3')).toEqual({
      ok: true,
      target: { kind: 'playlist', id: PL, index: 3 },
    });
    expect(readPath(`/channel/${UC}/videos`, '')).toEqual({
      ok: true,
      target: { kind: 'channel', id: UC, tab: 'videos' },
    });
    expect(readPath('/playlist/bad!', '')).toMatchObject({ ok: false });
    expect(readPath('/channel/UCshort', '')).toMatchObject({ ok: false });
    expect(readPath('/', '')).toBeNull();
    // A segment that does not decode is no route at all.
    expect(readPath('/playlist/%E0%A4%A', '')).toBeNull();
  });

  it('opens the platform’s other channel tabs at the channel’s videos', () => {
    for (const tab of ['featured', 'streams', 'shorts']) {
      expect(readPath(`/channel/${UC}/${tab}`, '')).toEqual({
        ok: true,
        target: { kind: 'channel', id: UC, tab: 'videos' },
      });
    }
    expect(readPath(`/channel/${UC}/about`, '')).toBeNull();
  });

  it('reads back every path pathFor builds', () => {
    const targets: ViewTarget[] = [
      { kind: 'playlist', id: PL },
      { kind: 'playlist', id: PL, index: 5 },
      { kind: 'channel', id: UC, tab: 'videos' },
      { kind: 'channel', id: UC, tab: 'playlists' },
    ];
    for (const t of targets) {
      const url = new URL(pathFor(t), 'http://localhost');
      expect(readPath(url.pathname, url.search)).toEqual({ ok: true, target: t });
    }
  });
});

describe('readIndex', () => {
  it('accepts positive integers only', () => {
    expect(readIndex('1')).toBe(1);
    expect(readIndex('2345')).toBe(2345);
    expect(readIndex('0')).toBeUndefined();
    expect(readIndex('-3')).toBeUndefined();
    expect(readIndex('1.5')).toBeUndefined();
    expect(readIndex('abc')).toBeUndefined();
    expect(readIndex(null)).toBeUndefined();
  });
});

describe('pathFor', () => {
  it('builds explorer paths', () => {
    expect(pathFor({ kind: 'playlist', id: PL })).toBe(`/playlist/${PL}`);
    expect(pathFor({ kind: 'playlist', id: PL, index: 5, videoId: 'dQw4w9WgXcQ' })).toBe(
      `/playlist/${PL}?index=5`,
    );
    expect(pathFor({ kind: 'playlist', id: PL, videoId: 'dQw4w9WgXcQ' })).toBe(
      `/playlist/${PL}?v=dQw4w9WgXcQ`,
    );
    expect(pathFor({ kind: 'channel', id: UC, tab: 'videos' })).toBe(`/channel/${UC}`);
    expect(pathFor({ kind: 'channel', id: UC, tab: 'playlists' })).toBe(`/channel/${UC}/playlists`);
  });
});
