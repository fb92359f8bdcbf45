import { describe, expect, it } from 'vitest';
import { exportJson, exportOpml, readImport, type ImportedList } from './follow-files.ts';
import type { FollowedList } from './follow-store.ts';

// Follow lists in and out of files: every format read, the way back for our own exports, and
// files refused whole, with the line that made them so.

const CHANNEL = 'UCcatalogueDemoChannel01';
const PLAYLIST = 'PLcatalogueDemoPlaylist5000items00';

const followed = (lists: ImportedList[]): FollowedList[] =>
  lists.map((list) => ({ ...list, followedAt: 0, seen: null }));

describe('importing', () => {
  it('reads the platform’s subscriptions.csv, quoted titles included', () => {
    const csv = [
      'Channel Id,Channel Url,Channel Title',
      `${CHANNEL},http://www.youtube.com/channel/${CHANNEL},Catalogue Demo Studios`,
      `UCcatalogueDemoChannel02,http://www.youtube.com/channel/UCcatalogueDemoChannel02,"Tiny, ""Workshop"""`,
      '',
    ].join('\r\n');
    expect(readImport(csv)).toEqual({
      ok: true,
      lists: [
        { kind: 'channel', id: CHANNEL, title: 'Catalogue Demo Studios' },
        { kind: 'channel', id: 'UCcatalogueDemoChannel02', title: 'Tiny, "Workshop"' },
      ],
    });
  });

  it('reads NewPipe’s subscriptions.json, leaving out other services', () => {
    const newpipe = JSON.stringify({
      app_version: '0.27.0',
      app_version_int: 997,
      subscriptions: [
        { service_id: 0, url: `https://www.youtube.com/channel/${CHANNEL}`, name: 'Studios' },
        { service_id: 1, url: 'https://soundcloud.com/someone', name: 'Elsewhere' },
      ],
    });
    expect(readImport(newpipe)).toEqual({
      ok: true,
      lists: [{ kind: 'channel', id: CHANNEL, title: 'Studios' }],
    });
  });

  it('reads OPML from feed readers: our feeds, the platform’s, nested outlines', () => {
    const opml = `<?xml version="1.0"?><opml version="2.0"><head><title>x</title></head><body>
      <outline text="Videos"><outline text="A &amp; B" type="rss" xmlUrl="https://www.youtube.com/feeds/videos.xml?channel_id=${CHANNEL}"/>
      <outline text="Talks" type="rss" xmlUrl="https://explorer.example/feeds/playlist/${PLAYLIST}.atom"/></outline></body></opml>`;
    expect(readImport(opml)).toEqual({
      ok: true,
      lists: [
        { kind: 'channel', id: CHANNEL, title: 'A & B' },
        { kind: 'playlist', id: PLAYLIST, title: 'Talks' },
      ],
    });
  });

  it('takes its own exports back to the same list', () => {
    const lists = followed([
      { kind: 'playlist', id: PLAYLIST, title: 'Every talk <2010–2026> & more' },
      { kind: 'channel', id: CHANNEL, title: 'Catalogue Demo Studios' },
    ]);
    const back = (text: string) => (readImport(text) as { lists: ImportedList[] }).lists;
    const plain = lists.map(({ kind, id, title }) => ({ kind, id, title }));
    expect(back(exportJson(lists))).toEqual(plain);
    expect(back(exportOpml(lists, 'https://explorer.example'))).toEqual(plain);
  });

  it('refuses a file whole, naming the line, the format or the reason', () => {
    const line = (result: ReturnType<typeof readImport>) =>
      result.ok ? null : { id: result.reason.id, line: result.reason.values?.line };
    const csv = `Channel Id,Channel Url,Channel Title\n${CHANNEL},,A\nnot-a-channel,,B\n`;
    expect(line(readImport(csv))).toEqual({ id: 'following.import.error.line', line: 3 });
    expect(line(readImport('{"subscriptions":[{"url":"https://example.com/x"}]}'))).toEqual({
      id: 'following.import.error.line',
      line: 1,
    });
    for (const [text, id] of [
      ['hello there', 'following.import.error.unknownFormat'],
      ['{"not":"ours"}', 'following.import.error.unknownFormat'],
      ['{"subscriptions": [', 'following.import.error.unreadable'],
      [
        '<opml version="2.0"><head><title>t</title></head><body><outline text="a folder"/></body></opml>',
        'following.import.error.empty',
      ],
      ['x'.repeat(5 * 1024 * 1024 + 1), 'following.import.error.tooBig'],
    ] as const)
      expect(
        readImport(text).ok ? null : (readImport(text) as { reason: { id: string } }).reason.id,
        text.slice(0, 20),
      ).toBe(id);
  });

  it('reads 5,000 channels quickly and bounded', () => {
    const rows = Array.from(
      { length: 5000 },
      (_, i) =>
        `UC${String(i).padStart(22, '0')},https://www.youtube.com/channel/UC${String(i).padStart(22, '0')},C${i}`,
    );
    const result = readImport(['Channel Id,Channel Url,Channel Title', ...rows].join('\n'));
    expect(result.ok && result.lists.length).toBe(5000);
  });
});
