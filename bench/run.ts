import { execFileSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { useHeadlessShell } from './browser.ts';
import { benchDragDeep } from './app-drag.ts';
import { benchAppFirstView, benchEmbedFirstView } from './app-first-view.ts';
import { benchPreviewCards } from './preview-cards.ts';
import { benchLanguages } from './languages.ts';
import { benchFollowing } from './following.ts';
import { benchJobs } from './jobs.ts';
import { benchAppMemory } from './app-memory.ts';
import { benchAppScrolling } from './app-scrolling.ts';
import { benchFind, FIND_QUERY } from './app-find.ts';
import { benchWholePlaylist } from './app-whole-playlist.ts';
import { PAGE, writeRun, type BenchRun } from './benchmarks-page.ts';
import { bundleRows } from './bundle-size.ts';
import { benchLighthouse } from './lighthouse.ts';
import { benchStartUp } from './start-up.ts';
import { benchMemoryPlan } from './memory-plan.ts';
import { benchCataloguePaging } from './catalogue-paging.ts';
import { hasCommand, pinSelf } from './processes.ts';
import { benchProxyCached } from './proxy-cached.ts';
import { benchProxyUncached } from './proxy-uncached.ts';
import { benchRenderFlood } from './render-flood.ts';
import { benchReplicas } from './replicas.ts';
import { benchStampede } from './stampede.ts';
import { renderTable, type BenchRow } from './table.ts';
import { BUILT_SERVER } from '../src/server/start.ts';
import { combineRepeats, verdict } from './repeats.ts';
import { benchWholeListWalks } from './whole-list-walk.ts';
import { benchDeepLinkWarming, benchDragWarming } from './chain-warming.ts';
import { benchDeepLink } from './deep-link.ts';
import {
  conditionsOf,
  LATENCY_150,
  LOCAL,
  REMOTE_LIKE,
  type Conditions,
  type LatencyProfile,
} from './latency-profiles.ts';

// `npm run bench`: the benchmarks (docs/benchmarks.md), each beside a reference measured
// in the same run. `--smoke` runs each for a moment, so that `npm test` keeps them from rotting;
// its figures mean nothing. `--only 1,4` picks some, `--skip 3,4` leaves some out. `--write` puts the figures on
// docs/benchmarks.md, the only place they are kept, after each bench, so that a run cut short
// keeps what it measured; with `--only`, the other rows stay as they were, with their own run.
// `--out FILE` writes the plain table to a file. `--repeat N` runs each bench N times and writes
// each row's median repeat with the spread over all N (bench/repeats.ts); the run ends by naming
// every row that misses its target, by how much, with that spread. `--check` makes those misses
// fail the run (exit 1), as a bench that breaks always does, so that a target has teeth.
//
// The benches that involve the network run under two latency profiles, local and remote-like,
// and the app's benches also with the page's CPU slowed four times (latency-profiles.ts); each
// row names its conditions. The smoke run keeps to the local profile at full speed (and one
// slowed first view, so that the throttling keeps working).

const { values } = parseArgs({
  options: {
    smoke: { type: 'boolean', default: false },
    only: { type: 'string' },
    skip: { type: 'string' },
    out: { type: 'string' },
    write: { type: 'boolean', default: false },
    repeat: { type: 'string', default: '1' },
    check: { type: 'boolean', default: false },
  },
});
const repeat = Number(values.repeat);
if (!Number.isInteger(repeat) || repeat < 1 || repeat > 10) {
  console.error(`bench: --repeat takes a whole number from 1 to 10, not ${values.repeat}.`);
  process.exit(2);
}
const smoke = values.smoke;
const idsOf = (list: string | undefined) =>
  list === undefined ? null : new Set(list.split(',').map((id) => id.trim()));
const only = idsOf(values.only);
const skip = idsOf(values.skip) ?? new Set<string>();

if (smoke && values.write) {
  console.error(`bench: --smoke figures mean nothing, so --write refuses to put them on ${PAGE}.`);
  process.exit(2);
}
if (smoke && values.check) {
  console.error('bench: --smoke figures mean nothing, so --check refuses to judge them.');
  process.exit(2);
}
if (!existsSync('dist/index.html') || !existsSync(BUILT_SERVER)) {
  console.error('bench: build the app first (npm run build).');
  process.exit(1);
}
if (!hasCommand('wrk'))
  console.warn('bench: wrk is not installed (apt-get install wrk); benches 1 and 2 need it.');
pinSelf();
if (smoke) useHeadlessShell();

const base = smoke ? { rounds: 1, samples: 3, seconds: 1 } : { rounds: 5, samples: 50, seconds: 5 };
const profiles: LatencyProfile[] = smoke ? [LOCAL] : [LOCAL, REMOTE_LIKE];
const appConditions = conditionsOf(profiles, smoke ? [1] : [1, 4]);
/**
 * Bench 5's: in the smoke run, one slowed page, which runs the path a full-speed one does and
 * keeps the throttling working too.
 */
const firstViewConditions = smoke ? conditionsOf([LOCAL], [4]) : appConditions;
/**
 * Rounds under each conditions: the bench's own under the local profile at full speed, fewer
 * under the others, whose every round takes seconds more (a page waits 165 ms on average).
 */
const roundsFor =
  (own: number, others: number) =>
  (conditions: Conditions): number =>
    smoke ? 1 : conditions.profile === LOCAL && conditions.cpuSlowdown === 1 ? own : others;
/** Chain warming's rows run where it matters, against the remote-like upstream. */
const warmingProfile = smoke ? LOCAL : REMOTE_LIKE;
// Each entry: the bench's number, and its run. Bench 10's run also measures bench 11 (the same
// processes serve both).
const benches: Array<[string, () => Promise<BenchRow[]>]> = [
  ['1', () => benchProxyCached(base)],
  ['2', () => benchProxyUncached({ ...base, rounds: smoke ? 1 : 3, pages: smoke ? 5 : 300 })],
  ['3', () => benchStampede({ ...base, rounds: smoke ? 2 : 10, concurrency: smoke ? 20 : 100 })],
  ['4', () => benchCataloguePaging({ ...base, samples: smoke ? 5 : 100 })],
  [
    '5',
    async () => [
      ...(await benchAppFirstView({
        conditions: firstViewConditions,
        // Five rounds under every condition: a first paint on a slowed CPU swings by tens of
        // milliseconds from one navigation to the next, and a median of two rounds is their mean.
        roundsFor: roundsFor(5, 5),
        samples: smoke ? 1 : 5,
      })),
      ...(await benchDeepLink({ rounds: smoke ? 1 : 3, profile: smoke ? LOCAL : LATENCY_150 })),
    ],
  ],
  [
    '6',
    () =>
      benchAppScrolling({
        pixelsPerSecond: 8000,
        maxSeconds: smoke ? 0.5 : 150,
        conditions: appConditions,
      }),
  ],
  [
    '7',
    async () => [
      ...(await benchWholePlaylist({
        conditions: appConditions,
        // Five rounds against the local upstream, at either page speed: a round takes a second
        // or two there, and at 4x CPU the median of three swung from 0.97x to 1.21x between two
        // runs of the same code. Three against the remote-like one, whose rounds take 9 s.
        roundsFor: (conditions) => (smoke ? 1 : conditions.profile === LOCAL ? 5 : 3),
      })),
      ...(await benchDeepLinkWarming({ rounds: smoke ? 1 : 3, profile: warmingProfile })),
    ],
  ],
  ['8', async () => bundleRows()],
  [
    '9',
    async () => [
      ...(await benchDragDeep({
        conditions: appConditions,
        roundsFor: roundsFor(5, 3),
      })),
      ...(await benchDragWarming({
        rounds: smoke ? 1 : 3,
        profile: warmingProfile,
        readingMs: smoke ? [0] : [0, 5000],
      })),
    ],
  ],
  [
    '10',
    () =>
      benchWholeListWalks({
        rounds: smoke ? 1 : 5,
        profiles,
        // Locally a walk takes a tenth of a second; remote-like, eight seconds.
        pairsFor: (profile) => (profile === LOCAL ? (smoke ? 1 : 40) : 6),
      }),
  ],
  [
    '12',
    () =>
      benchFind({
        conditions: conditionsOf([LOCAL], smoke ? [1] : [1, 4]),
        roundsFor: roundsFor(3, 2),
        // Smoke: three keys, the space among them.
        query: smoke ? 'a b' : FIND_QUERY,
      }),
  ],
  [
    '13',
    () =>
      benchReplicas({
        ...base,
        rounds: smoke ? 1 : 5,
        samples: smoke ? 1 : 50,
        seconds: smoke ? 0.2 : base.seconds,
      }),
  ],
  [
    '14',
    () =>
      benchRenderFlood({
        rounds: smoke ? 1 : 3,
        flood: smoke ? 50 : 1000,
        quiet: smoke ? 20 : 300,
      }),
  ],
  [
    '15',
    async () => [
      ...(await benchPreviewCards({
        rounds: smoke ? 1 : 3,
        cards: smoke ? 5 : 24,
        cached: smoke ? 10 : 200,
      })),
      ...(await benchEmbedFirstView({
        conditions: conditionsOf([LOCAL], smoke ? [1] : [1, 4]),
        rounds: smoke ? 1 : 5,
        samples: smoke ? 1 : 5,
      })),
    ],
  ],
  [
    '16',
    () =>
      benchLanguages({
        conditions: conditionsOf([LOCAL], smoke ? [1] : [1, 4]),
        rounds: smoke ? 1 : 5,
        samples: smoke ? 1 : 6,
      }),
  ],
  [
    '17',
    () =>
      benchFollowing({
        profiles,
        rounds: smoke ? 1 : 3,
        ...(smoke ? { many: 50, scrollSeconds: 0.5, settleMs: 0 } : {}),
      }),
  ],
  ['18', () => benchJobs({ rounds: smoke ? 1 : 3, smoke })],
  [
    '19',
    () =>
      benchAppMemory(
        smoke
          ? { channelRows: 100, playlistRows: 100, every: 50 }
          : { channelRows: 100_000, playlistRows: 20_000, every: 10_000 },
      ),
  ],
  ['start', () => benchStartUp({ rounds: smoke ? 1 : 5, settleMs: smoke ? 0 : 2_000 })],
  [
    'memory',
    () =>
      benchMemoryPlan(
        smoke
          ? { views: 5, pages: 20, exports: false, feeds: 3, cards: 2, burstViews: 4 }
          : { views: 400, pages: 10_000, exports: true, feeds: 1_000, cards: 600, burstViews: 200 },
      ),
  ],
  ['lighthouse', () => benchLighthouse({ runs: smoke ? 1 : 3, smoke })],
];

const covers = (id: string) => (id === '10' ? ['10', '11'] : [id]);
if (only || skip.size > 0) {
  const known = new Set(benches.flatMap(([id]) => covers(id)));
  const unknown = [...(only ?? []), ...skip].filter((id) => !known.has(id));
  if (unknown.length > 0) {
    console.error(`bench: no bench ${unknown.join(', ')} (there are ${[...known].join(', ')}).`);
    process.exit(2);
  }
}

/** The code measured: HEAD, and whether what runs differs from it. */
function commit(): string {
  try {
    const head = execFileSync('git', ['rev-parse', '--short=10', 'HEAD'], { encoding: 'utf8' });
    const changed = execFileSync(
      'git',
      [
        'status',
        '--porcelain',
        '--',
        'src',
        'bench',
        'e2e',
        'index.html',
        'package.json',
        'vite.config.ts',
      ],
      { encoding: 'utf8' },
    );
    return `${head.trim()}${changed.trim() ? ' with uncommitted changes' : ''}`;
  } catch {
    return 'unknown (not a git checkout)';
  }
}

const machine = `${cpus().length} cores (${cpus()[0]?.model.trim() ?? 'unknown CPU'}), Node ${process.version}`;
const utc = new Date().toISOString();
const run: BenchRun = {
  date: `${utc.slice(0, 10)} ${utc.slice(11, 16)} UTC`,
  commit: commit(),
  machine,
  load: loadavg()[0]!.toFixed(1),
  took: [],
  full: only === null && skip.size === 0,
  ...(repeat > 1 ? { repeat } : {}),
};
const loadAtStart = run.load;

const rows: BenchRow[] = [];
let failed = 0;

/** One run of one bench: its rows, or a row saying why there are none. */
async function runOnce(id: string, bench: () => Promise<BenchRow[]>): Promise<BenchRow[]> {
  if ((id === '1' || id === '2') && !hasCommand('wrk')) {
    return [
      {
        bench: id,
        measure: 'not run: needs wrk',
        figure: '–',
        reference: 'wrk not installed (apt-get install wrk)',
        ratio: '–',
        target: '–',
        met: null,
      },
    ];
  }
  try {
    return await bench();
  } catch (error) {
    failed++;
    console.error(error);
    return [
      {
        bench: id,
        measure: 'FAILED',
        figure: String(error instanceof Error ? error.message : error).split('\n')[0]!,
        reference: '–',
        ratio: '–',
        target: '–',
        met: false,
      },
    ];
  }
}

for (const [id, bench] of benches) {
  if (only && !covers(id).some((c) => only.has(c))) continue;
  if (covers(id).every((c) => skip.has(c))) continue;
  const started = Date.now();
  const before = rows.length;
  const repeats: BenchRow[][] = [];
  for (let i = 0; i < repeat; i++) {
    if (repeat > 1) console.error(`bench #${id}: repeat ${i + 1} of ${repeat}`);
    repeats.push(await runOnce(id, bench));
  }
  rows.push(...combineRepeats(repeats));
  const seconds = (Date.now() - started) / 1000;
  console.error(`bench #${id}: ${seconds.toFixed(1)} s`);
  if (values.write) {
    run.took.push([covers(id).join(', '), Math.round(seconds)]);
    run.load = `${loadAtStart} at start, ${loadavg()[0]!.toFixed(1)} at the end`;
    // Written after each bench, so that a run cut short keeps what it measured.
    const partial = { ...run, full: false };
    await writeRun(partial, new Set(covers(id)), rows.slice(before));
  }
}
// A full run ends by replacing the whole table, so that rows of benches that are gone drop out.
if (values.write && run.full) await writeRun(run, new Set(), rows);

const table = `${renderTable(rows)}\n\n${smoke ? 'SMOKE RUN: figures are not measurements. ' : ''}Machine: ${machine}. Medians with (min–max) over rounds.`;
console.log(table);
// Without --check (the smoke run among them) only a bench that breaks fails the run.
const { code, misses } = verdict(rows, { check: values.check, failed });
if (!smoke && misses.length > 0)
  console.log(`\nRows that miss their target:\n- ${misses.join('\n- ')}`);
if (values.out) writeFileSync(values.out, `${table}\n`);
if (values.check)
  console.error(
    misses.length > 0
      ? `bench --check: ${misses.length} ${misses.length === 1 ? 'row misses its' : 'rows miss their'} target (listed above).`
      : 'bench --check: every row with a target meets it.',
  );
process.exit(code);
