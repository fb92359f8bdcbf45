import { describe, expect, it } from 'vitest';
import {
  exportJson,
  exportOpml,
  MAX_IMPORT_LISTS,
  readImport,
  type ImportedList,
} from './follow-files.ts';
import type { FollowedList } from './follow-store.ts';

// Follow lists in and out of files: every format read, the way back for our own exports, and
// files refused whole, with the line that made them so.

const CHANNEL = 'UCcatalogueDemoChannel01';
const PLAYLIST = 'PLcatalogueDemoPlaylist5000items00';

const followed = (lists: ImportedList[]): FollowedList[] =>
  lists.map((list) => ({ ...list, followedAt: 0, seen: null }));

/** A file taken whole: its lists, nothing skipped, nothing over the cap. */
const takenWhole = (lists: ImportedList[]) => ({
  ok: true,
  lists,
  skipped: { count: 0, names: [] },
  overCap: 0,
});

describe('importing', () => {
  it('reads the platform’s subscriptions.csv, quoted titles included', () => {
    const csv = [
      'Channel Id,Channel Url,Channel Title',
      `${CHANNEL},http://www.youtube.com/channel/${CHANNEL},Catalogue Demo Studios`,
      `UCcatalogueDemoChannel02,http://www.youtube.com/channel/UCcatalogueDemoChannel02,"Tiny, ""Workshop"""`,
      '',
    ].join('\r\n');
    expect(readImport(csv)).toEqual(
      takenWhole([
        { kind: 'channel', id: CHANNEL, title: 'Catalogue Demo Studios' },
        { kind: 'channel', id: 'UCcatalogueDemoChannel02', title: 'Tiny, "Workshop"' },
      ]),
    );
  });

  it('reads Takeout’s CSV in any language: by its column of channel IDs, not its header', () => {
    const rows = [
      `${CHANNEL},http://www.youtube.com/channel/${CHANNEL},Catalogue Demo Studios`,
      'UCcatalogueDemoChannel02,http://www.youtube.com/channel/UCcatalogueDemoChannel02,Tiny',
    ];
    const expected = takenWhole([
      { kind: 'channel', id: CHANNEL, title: 'Catalogue Demo Studios' },
      { kind: 'channel', id: 'UCcatalogueDemoChannel02', title: 'Tiny' },
    ]);
    for (const header of [
      'Kanal-ID,Kanal-URL,Kanaltitel',
      'ID del canal,URL del canal,Título del canal',
      'チャンネル ID,チャンネルの URL,チャンネルのタイトル',
      '\uFEFFИдентификатор канала,URL канала,Название канала',
    ])
      expect(readImport([header, ...rows, ''].join('\n')), header).toEqual(expected);
    // With no header line at all, too.
    expect(readImport(rows.join('\n'))).toEqual(expected);
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
    expect(readImport(newpipe)).toEqual(
      takenWhole([{ kind: 'channel', id: CHANNEL, title: 'Studios' }]),
    );
  });

  it('reads OPML from feed readers: our feeds, the platform’s, nested outlines', () => {
    const opml = `<?xml version="1.0"?><opml version="2.0"><head><title>x</title></head><body>
      <outline text="Videos"><outline text="A &amp; B" type="rss" xmlUrl="https://www.youtube.com/feeds/videos.xml?channel_id=${CHANNEL}"/>
      <outline text="Talks" type="rss" xmlUrl="https://explorer.example/feeds/playlist/${PLAYLIST}.atom"/></outline></body></opml>`;
    expect(readImport(opml)).toEqual(
      takenWhole([
        { kind: 'channel', id: CHANNEL, title: 'A & B' },
        { kind: 'playlist', id: PLAYLIST, title: 'Talks' },
      ]),
    );
  });

  it('takes a feed reader’s lists of this platform from its OPML, and names the blogs it skips', () => {
    const lists = Array.from(
      { length: 10 },
      (_, i) => `UCfollowedChannel${String(i).padStart(7, '0')}`,
    );
    const opml = `<?xml version="1.0"?><opml version="2.0"><head><title>My feeds</title></head><body>
      <outline text="Blogs">
        <outline text="A cooking blog" type="rss" xmlUrl="https://cooking.example/feed.xml" htmlUrl="https://cooking.example/"/>
        <outline text="Release notes" type="rss" xmlUrl="https://github.com/x/y/releases.atom"/>
      </outline>
      <outline text="Video" title="Video">
        ${lists.map((id, i) => `<outline text="Channel ${i}" type="rss" xmlUrl="https://www.youtube.com/feeds/videos.xml?channel_id=${id}"/>`).join('\n')}
      </outline>
      <outline type="rss" xmlUrl="https://podcast.example/rss"/></body></opml>`;
    const result = readImport(opml);
    expect(result.ok && result.lists.map((list) => list.id)).toEqual(lists);
    expect(result.ok && result.skipped).toEqual({
      count: 3,
      names: ['A cooking blog', 'Release notes', 'https://podcast.example/rss'],
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
    expect(result.ok && result.overCap).toBe(0);
  });

  it('takes at most MAX_IMPORT_LISTS lists from one file, and counts the rest', () => {
    const rows = Array.from(
      { length: MAX_IMPORT_LISTS + 7 },
      (_, i) => `UC${String(i).padStart(22, '0')}`,
    );
    const result = readImport(['Channel Id,Channel Url,Channel Title', ...rows].join('\n'));
    expect(result.ok && [result.lists.length, result.overCap]).toEqual([MAX_IMPORT_LISTS, 7]);
  });
});
