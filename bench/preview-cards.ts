import { Pool } from 'undici';
import { FIXTURE_IDS } from '../src/catalogue/demo-fixtures.ts';
import { startExplorer } from './explorer.ts';
import { formatSpread, median, percentile, spread } from './stats.ts';
import type { BenchRow } from './table.ts';

// Bench 15 (cards): a preview card (cards/preview-cards.ts) of a list whose first page the
// explorer holds, drawn the first time it is asked for (each sample a card of its own: item N
// of the 5,000-video playlist, N = 1, 2, … of its first page, and the four demo playlists'),
// then answered from memory; beside each, a thumbnail through the same server (an image it only
// passes on), the floor of any image answer. And the largest card's size. The explorer runs
// the embedded catalogue, whose thumbnails the cards draw, as a user of the default one would.

const PLAYLISTS = [
  FIXTURE_IDS.playlist5000,
  FIXTURE_IDS.playlist101,
  FIXTURE_IDS.playlist100,
  FIXTURE_IDS.playlistEmpty,
];

async function timed(pool: Pool, path: string): Promise<{ ms: number; bytes: number }> {
  const started = performance.now();
  const { statusCode, body } = await pool.request({ method: 'GET', path });
  const bytes = (await body.arrayBuffer()).byteLength;
  const ms = performance.now() - started;
  if (statusCode !== 200) throw new Error(`${path}: ${statusCode}`);
  return { ms, bytes };
}

export async function benchPreviewCards(options: {
  rounds: number;
  /** Cards drawn per round (items of the first page, then the playlists'). */
  cards: number;
  /** Answers from memory per round. */
  cached: number;
}): Promise<BenchRow[]> {
  const first: number[] = [];
  const cached: number[] = [];
  const thumbnail: number[] = [];
  let largest = 0;
  for (let round = 0; round < options.rounds; round++) {
    // A fresh explorer each round: every card is drawn for the first time.
    const explorer = await startExplorer();
    const pool = new Pool(explorer.url, { connections: 1 });
    try {
      // The lists' first pages, read as the API reads them (and so cached).
      const thumbnails: string[] = [];
      for (const id of PLAYLISTS) {
        const page = (await (await fetch(`${explorer.url}/api/v1/playlist?id=${id}`)).json()) as {
          items: Array<{ thumbnails: Array<{ url: string }> }>;
        };
        for (const item of page.items.slice(0, 5)) {
          const url = item.thumbnails[0]?.url;
          if (url?.startsWith('/thumbnails/')) thumbnails.push(url);
        }
      }
      const paths = [
        ...Array.from(
          { length: Math.max(0, options.cards - PLAYLISTS.length) },
          (_, i) => `/cards/playlist/${FIXTURE_IDS.playlist5000}.png?index=${i + 1}`,
        ),
        ...PLAYLISTS.map((id) => `/cards/playlist/${id}.png`),
      ].slice(0, options.cards);
      // Sharp and the fonts warmed on another card, as on a server that has drawn one.
      await timed(pool, `/cards/channel/${FIXTURE_IDS.smallChannel}.png`);
      const drawn: number[] = [];
      for (const path of paths) {
        const { ms, bytes } = await timed(pool, path);
        drawn.push(ms);
        largest = Math.max(largest, bytes);
        const picture = thumbnails[drawn.length % thumbnails.length];
        if (picture !== undefined) thumbnail.push((await timed(pool, picture)).ms);
      }
      first.push(median(drawn));
      const again: number[] = [];
      for (let i = 0; i < options.cached; i++)
        again.push((await timed(pool, paths[i % paths.length]!)).ms);
      cached.push(median(again));
    } finally {
      await pool.close();
      await explorer.stop();
    }
  }
  const f = spread(first);
  const c = spread(cached);
  const floor = `a thumbnail through the same server, p50 ${median(thumbnail).toFixed(2)} ms (p99 ${percentile(thumbnail, 99).toFixed(2)} ms)`;
  return [
    {
      bench: '15',
      measure: `preview card of a list whose first page is cached, drawn the first time (p50 of ${options.cards} cards, ${options.rounds} rounds)`,
      figure: formatSpread(f, 1, ' ms'),
      reference: floor,
      ratio: `${(f.median / median(thumbnail)).toFixed(1)}× a thumbnail`,
      target: '≤ 150 ms',
      met: f.median <= 150,
    },
    {
      bench: '15',
      measure: 'the same cards again, from memory (p50)',
      figure: formatSpread(c, 2, ' ms'),
      reference: floor,
      ratio: `${(c.median / median(thumbnail)).toFixed(2)}× a thumbnail`,
      target: '≤ 2 ms',
      met: c.median <= 2,
    },
    {
      bench: '15',
      measure: 'the largest card drawn (1200×630 PNG)',
      figure: `${(largest / 1024).toFixed(1)} KB`,
      reference: 'budget 200 KB',
      ratio: `${(largest / (200 * 1024)).toFixed(2)}× budget`,
      target: '≤ 200 KB',
      met: largest <= 200 * 1024,
    },
  ];
}
