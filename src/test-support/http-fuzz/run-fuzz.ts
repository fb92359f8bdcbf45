import fc from 'fast-check';
import { remember, render, type FuzzCase, type Memory, type WireRequest } from './fuzz-case.ts';
import type { FuzzTarget } from './fuzz-target.ts';
import { fuzzCase } from './generators.ts';
import { createExchange, type Outcome } from './http-exchange.ts';
import { expectationFor } from './oracle.ts';
import { KNOWN_ISSUES, PROPERTIES, violations, type Exchange, type Tally } from './properties.ts';
import { WALKS_PER_CLIENT } from '../../shared/whole-list.ts';

// A fuzzing run: fast-check draws cases (generators.ts), each is sent to the running explorer
// one at a time (so that the upstream calls counted while it runs are its own), and every
// property is checked on every answer. The first failing case is shrunk by fast-check to a
// small one and reported with the seed and path that replay it.

export interface FuzzRunOptions {
  cases: number;
  /** Default: a fresh one, reported, so that any run can be replayed. */
  seed?: number;
  /** fast-check's path to a counterexample, to replay it alone (with its seed). */
  path?: string;
  onProgress?: (done: number) => void;
}

export interface FuzzFailure {
  case: FuzzCase;
  request: WireRequest;
  violations: string[];
}

export interface FuzzReport {
  seed: number;
  /** Cases tried before the first failure, or all of them. */
  cases: number;
  failed: boolean;
  /** The shrunk counterexample. */
  failure: FuzzFailure | null;
  /** Set when the run failed, for `path`. */
  counterexamplePath: string | null;
  shrinks: number;
  properties: Array<{ name: string; description: string } & Tally>;
  /** Answers by status (or `error`), over the cases tried. */
  statuses: Map<string, number>;
  /** Lookup answers by X-Cache (hit, miss, merged, stale), over the cases tried. */
  cache: Map<string, number>;
  consoleWarnings: number;
  /** The slowest answer over the cases tried. */
  slowest: { ms: number; request: WireRequest } | null;
  /** Faults of known issues (properties.ts), by issue, over the cases tried. */
  known: Map<string, number>;
  /** Upstream calls over the cases tried, and the cases allowed to make one. */
  upstreamCalls: number;
  mayCallCases: number;
  /** Whole-list cases (GET or HEAD) by route and verdict, e.g. `summary valid`, over the cases tried. */
  wholeLists: Map<string, number>;
  /** Walks cases left running (each one a fault), and the client addresses the run needed. */
  walksLeft: number;
  clients: number;
  ms: number;
}

/** An answer slower than this may have left an upstream call running (pages wait a second). */
const SLOW_MS = 800;

/** Walks still running after a case's answer was read: given a moment to end, as they should. */
async function walksAfter(target: FuzzTarget, baseline: number): Promise<number> {
  let running = await target.walksRunning();
  for (let waited = 0; waited < 250 && running > baseline; waited += 25) {
    await new Promise((resolve) => setTimeout(resolve, 25));
    running = await target.walksRunning();
  }
  return running;
}

/** Until the upstream has had no new request for a moment, so a late call is not miscounted. */
async function settle(target: FuzzTarget): Promise<void> {
  let seen = -1;
  for (let waited = 0; waited < 5_000 && seen !== target.upstream.hits(); waited += 200) {
    seen = target.upstream.hits();
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** Continuations and validators the explorer sent, for later cases to send back. */
function learn(outcome: Outcome, memory: Memory): void {
  if (!outcome.ok) return;
  const { response } = outcome;
  const etag = response.headers.etag;
  if (typeof etag === 'string') remember(memory.etags, etag);
  if (response.status !== 200 || !/json/.test(response.headers['content-type'] ?? '')) return;
  try {
    const { continuation } = JSON.parse(response.body?.toString('utf8') ?? '') as {
      continuation?: unknown;
    };
    if (typeof continuation === 'string') remember(memory.continuations, continuation);
  } catch {
    // Not a page.
  }
}

export async function runFuzz(target: FuzzTarget, options: FuzzRunOptions): Promise<FuzzReport> {
  const seed = options.seed ?? (Date.now() ^ Math.floor(Math.random() * 0x7fffffff)) | 0;
  const started = performance.now();
  const memory: Memory = { continuations: [], etags: [] };
  // One client, as the server sees addresses, until walks it was left holding (a fault, counted)
  // would refuse its next ones; then the next loopback address, so walks stay reachable.
  let clients = 1;
  let client = createExchange(target.url);
  let heldByClient = 0;
  let walksRunning = await target.walksRunning();
  let walksLeft = 0;
  const wholeLists = new Map<string, number>();
  const tallies = new Map<string, Tally>(
    PROPERTIES.map((p) => [p.name, { checked: 0, violated: 0 }]),
  );
  const statuses = new Map<string, number>();
  const known = new Map<string, number>();
  const cache = new Map<string, number>();
  let slowest: FuzzReport['slowest'] = null;
  const failures = new WeakMap<FuzzCase, FuzzFailure>();
  let lastFailure: FuzzFailure | null = null;
  let shrinking = false;
  let tried = 0;
  let upstreamCalls = 0;
  let mayCallCases = 0;

  const property = fc.asyncProperty(fuzzCase, async (generated) => {
    const request = render(generated, memory);
    const expectation = expectationFor(request);
    if (heldByClient >= WALKS_PER_CLIENT) {
      client.close();
      clients += 1;
      client = createExchange(target.url, `127.0.0.${clients}`);
      heldByClient = 0;
    }
    target.takeErrorLogs(); // whatever an earlier case left behind is not this one's
    const before = target.upstream.requests.length;
    const outcome = await client.send(request);
    if (expectation.mayCallUpstream && (!outcome.ok || outcome.response.ms > SLOW_MS))
      await settle(target);
    let walks: Exchange['walks'];
    if (expectation.wholeList !== null) {
      const running = await walksAfter(target, walksRunning);
      walks = { left: Math.max(0, running - walksRunning), heldBefore: heldByClient };
      heldByClient += walks.left;
      walksRunning = running;
    }
    const calls = target.upstream.requests.slice(before).map((r) => r.url);
    learn(outcome, memory);
    const exchange: Exchange = {
      request,
      expectation,
      outcome,
      upstreamCalls: calls,
      errorLogs: target.takeErrorLogs(),
      walks,
    };
    const found = shrinking
      ? violations(exchange, target)
      : violations(exchange, target, tallies, known);
    if (!shrinking) {
      tried += 1;
      upstreamCalls += calls.length;
      if (expectation.mayCallUpstream) mayCallCases += 1;
      walksLeft += walks?.left ?? 0;
      const whole = expectation.wholeList;
      if (whole !== null) {
        const key = `${whole.route} ${whole.verdict}`;
        wholeLists.set(key, (wholeLists.get(key) ?? 0) + 1);
      }
      const ms = outcome.ok ? outcome.response.ms : Infinity;
      if (slowest === null || ms > slowest.ms) slowest = { ms, request };
      const status = outcome.ok ? String(outcome.response.status) : 'error';
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
      const xCache = outcome.ok ? outcome.response.headers['x-cache'] : undefined;
      if (typeof xCache === 'string') cache.set(xCache, (cache.get(xCache) ?? 0) + 1);
      options.onProgress?.(tried);
    }
    if (found.length === 0) return;
    shrinking = true;
    lastFailure = { case: generated, request, violations: found };
    failures.set(generated, lastFailure);
    throw new Error(found.join('\n'));
  });

  try {
    const details = await fc.check(property, {
      numRuns: options.cases,
      seed,
      path: options.path,
    });
    const example = details.counterexample?.[0];
    const failure = example === undefined ? null : (failures.get(example) ?? lastFailure);
    return {
      seed: details.seed,
      cases: tried,
      failed: details.failed,
      failure,
      counterexamplePath: details.counterexamplePath,
      shrinks: details.numShrinks,
      properties: PROPERTIES.map(({ name, description }) => ({
        name,
        description,
        ...(tallies.get(name) as Tally),
      })),
      statuses,
      cache,
      consoleWarnings: target.consoleWarnings(),
      slowest,
      known,
      upstreamCalls,
      mayCallCases,
      wholeLists,
      walksLeft,
      clients,
      ms: performance.now() - started,
    };
  } finally {
    client.close();
  }
}

/** Long values (a 20,000-character target) cut short, saying how long they were. */
const clip = (text: string, max = 600) =>
  text.length <= max ? text : `${text.slice(0, max)}… (${text.length} characters)`;

/** The report as text, for a terminal or a test's failure message. */
export function formatReport(report: FuzzReport): string {
  const lines = [
    `cases tried: ${report.cases}`,
    `seed: ${report.seed}`,
    `failures: ${report.failed ? 1 : 0}`,
    `time: ${(report.ms / 1000).toFixed(1)} s (${(report.ms / Math.max(1, report.cases)).toFixed(2)} ms a case)`,
    `upstream calls: ${report.upstreamCalls} (cases allowed one: ${report.mayCallCases})`,
    `answers: ${[...report.statuses]
      .sort()
      .map(([s, n]) => `${s}×${n}`)
      .join(' ')}`,
    `lookup pages by X-Cache: ${
      [...report.cache]
        .sort()
        .map(([s, n]) => `${s}×${n}`)
        .join(' ') || 'none'
    }`,
    `whole-list cases by route and verdict: ${
      [...report.wholeLists]
        .sort()
        .map(([s, n]) => `${s}×${n}`)
        .join(' ') || 'none'
    }`,
    `walks left running: ${report.walksLeft} (client addresses used: ${report.clients})`,
    `console warnings (React Router, undecodable paths): ${report.consoleWarnings}`,
    ...(report.slowest === null
      ? []
      : [
          clip(
            `slowest answer: ${report.slowest.ms.toFixed(1)} ms, ${report.slowest.request.method} ${report.slowest.request.target}`,
            200,
          ),
        ]),
    'properties (cases checked / violated):',
    ...report.properties.map(
      (p) =>
        `  ${p.name.padEnd(26)} ${String(p.checked).padStart(6)} / ${p.violated}   ${p.description}`,
    ),
  ];
  const known = KNOWN_ISSUES.filter((issue) => report.known.has(issue.name));
  if (known.length > 0) {
    lines.push('known issues (reported to their owners; not counted as failures):');
    for (const issue of known)
      lines.push(`  ${issue.name} ×${report.known.get(issue.name)}: ${issue.description}`);
  }
  if (report.failed) {
    lines.push(
      '',
      `FAILED; replay with --seed ${report.seed} --path ${report.counterexamplePath ?? '?'}`,
    );
    lines.push(`shrunk ${report.shrinks} times to:`);
    if (report.failure !== null) {
      const { request, violations: found } = report.failure;
      lines.push(clip(`  ${request.method} ${request.target}`));
      for (const [name, value] of request.headers) lines.push(clip(`  ${name}: ${value}`));
      if (request.omitHost) lines.push('  (no Host header)');
      if (request.body !== null) lines.push(`  body: ${JSON.stringify(request.body)}`);
      lines.push('  violations:', ...found.map((v) => clip(`    ${v}`)));
      lines.push(clip(`  case: ${JSON.stringify(report.failure.case)}`, 2_000));
    }
  }
  return lines.join('\n');
}
