import { afterEach, describe, expect, it } from 'vitest';
import { FIXTURE_IDS } from '../../catalogue/demo-fixtures.ts';
import {
  emptyTally,
  keepAliveClient,
  openConnection,
  startExplorerProcess,
  type ExplorerProcess,
  type RawResponse,
} from '../../test-support/raw-http.ts';

// SIGTERM while forty keep-alive clients send requests back to back, as a deploy meets a busy
// explorer: no client sees a reset, every request sent gets its whole answer, and the process
// is gone well within its deadline. The clients speak raw HTTP/1.1 over node:net and count
// what a library would hide (a reset, a connection closed under a request).

const CLIENTS = 40;
/** Of those, the ones that walk a 5,000-item playlist page by page: uncached, slow lookups. */
const WALKERS = 8;
const DEADLINE_MS = 5_000;
const LOAD_MS = 1_500;

let explorer: ExplorerProcess | undefined;

afterEach(async () => {
  await explorer?.dispose();
  explorer = undefined;
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The next page of the 5,000-item playlist after `last`, or its first page. */
function walk(last: RawResponse | null): string {
  const base = `/api/v1/playlist?id=${FIXTURE_IDS.playlist5000}`;
  if (last?.status !== 200) return base;
  const { continuation } = JSON.parse(last.body.toString()) as { continuation: string | null };
  return continuation === null ? base : `${base}&continuation=${encodeURIComponent(continuation)}`;
}

describe('shutdown on SIGTERM', () => {
  it('resets no keep-alive client, answers every request in flight, exits within its deadline', async () => {
    explorer = await startExplorerProcess({
      SHUTDOWN_DEADLINE_MS: String(DEADLINE_MS),
      // Every upstream lookup takes 100 ms, so that some are in flight at any moment.
      CATALOGUE_FAULTS: 'latency=100',
      CLIENT_RATE_LIMIT_BURST: '1000000',
      CLIENT_RATE_LIMIT_PER_SECOND: '1000000',
      LOG_LEVEL: 'info',
    });
    const { port, child, exited } = explorer;

    const tally = emptyTally();
    let sigtermAt: number | undefined = undefined;
    let giveUp = false;
    const marked = () => sigtermAt !== undefined;
    const control = { stop: () => giveUp, marked };
    const cached = `/api/v1/playlist?id=${FIXTURE_IDS.playlist100}`;
    const clients = Array.from({ length: CLIENTS }, (_, i) =>
      keepAliveClient(
        port,
        // The others alternate between a cached page (the fast path) and /healthz (the app).
        i < WALKERS ? (_n, last) => walk(last) : (n) => (n % 2 === 0 ? cached : '/healthz'),
        tally,
        control,
      ),
    );

    await sleep(LOAD_MS);
    const answeredBefore = tally.answered;
    sigtermAt = performance.now();
    child.kill('SIGTERM');
    const { code, at } = await exited;
    const exitMs = at - sigtermAt;
    // Every client ends on a refused connection once the server has stopped listening; a
    // client still going long after the exit is a failure of its own, not a hang of the test.
    const safety = setTimeout(() => (giveUp = true), 5_000);
    await Promise.all(clients);
    clearTimeout(safety);

    const stopped = explorer.logLines().find((line) => line.msg === 'stopped');
    console.info(
      `[edge] SIGTERM under ${CLIENTS} keep-alive clients: ${answeredBefore} answers before, ` +
        `${tally.answeredAfterMark} after (${tally.saidClose} saying close), ` +
        `${tally.resets} resets, ${tally.unanswered} requests unanswered, ` +
        `${tally.closedIdle} closed idle, exit ${code} in ${Math.round(exitMs)} ms ` +
        `(connections closed in ${String(stopped?.connectionsMs)} ms, ${String(stopped?.forced)} cut)`,
    );

    expect(answeredBefore).toBeGreaterThan(CLIENTS);
    expect(tally.resets).toBe(0);
    expect(tally.unanswered).toBe(0);
    expect(tally.otherErrors).toEqual([]);
    expect(tally.answered).toBe(tally.sent);
    // The requests in flight at SIGTERM were answered, and told the clients to go.
    expect(tally.answeredAfterMark).toBeGreaterThan(0);
    expect(tally.saidClose).toBeGreaterThan(0);
    expect(Object.keys(tally.statuses)).toEqual(['200']);
    expect(code).toBe(0);
    expect(exitMs).toBeLessThan(DEADLINE_MS);
    expect(stopped).toMatchObject({ forced: 0 });
    expect(explorer.logLines().map((line) => line.msg)).toEqual(
      expect.arrayContaining(['shutting down', 'stopped']),
    );
  });

  it('closes an idle keep-alive connection between requests; one used just after SIGTERM is answered first', async () => {
    explorer = await startExplorerProcess({ SHUTDOWN_DEADLINE_MS: String(DEADLINE_MS) });
    const { port, child, exited } = explorer;
    const connections = await Promise.all(Array.from({ length: 6 }, () => openConnection(port)));
    for (const connection of connections)
      expect((await connection.get('/healthz')).status).toBe(200);

    const sigtermAt = performance.now();
    child.kill('SIGTERM');
    // Half of them send their next request a moment later, as a client that had it on the way.
    await sleep(200);
    const late = await Promise.all(connections.slice(0, 3).map((c) => c.get('/healthz')));
    for (const response of late) {
      expect(response.status).toBe(200);
      expect(response.headers.connection).toBe('close');
    }
    const closes = await Promise.all(connections.map((c) => c.closed));
    for (const close of closes) expect(close).toMatchObject({ error: null, endedByServer: true });
    // The idle ones were left a quiet second in which a request of theirs would have been
    // answered, and no more than that.
    for (const close of closes.slice(3)) {
      expect(close.at - sigtermAt).toBeGreaterThanOrEqual(900);
      expect(close.at - sigtermAt).toBeLessThan(DEADLINE_MS);
    }
    const { code, at } = await exited;
    expect(code).toBe(0);
    expect(at - sigtermAt).toBeLessThan(DEADLINE_MS);
    console.info(
      `[edge] SIGTERM with 3 idle keep-alive connections: exit in ${Math.round(at - sigtermAt)} ms`,
    );
  });

  it('cuts what is still running at the deadline, and is gone by it', async () => {
    const deadlineMs = 1_500;
    explorer = await startExplorerProcess({
      SHUTDOWN_DEADLINE_MS: String(deadlineMs),
      // A lookup that takes far longer than the deadline.
      CATALOGUE_FAULTS: 'latency=10000',
      UPSTREAM_TIMEOUT_MS: '20000',
      UPSTREAM_RETRIES: '0',
    });
    const { port, child, exited } = explorer;
    const connection = await openConnection(port);
    const answer = connection.get(`/api/v1/playlist?id=${FIXTURE_IDS.playlist100}`).then(
      () => 'answered',
      () => 'cut',
    );
    await sleep(300);
    const sigtermAt = performance.now();
    child.kill('SIGTERM');
    const { at } = await exited;
    expect(await answer).toBe('cut');
    expect(at - sigtermAt).toBeLessThan(deadlineMs + 500);
    expect(explorer.logLines().map((line) => line.msg)).toContain(
      'in-flight requests did not finish in time; closing connections',
    );
    console.info(
      `[edge] SIGTERM with a lookup slower than a ${deadlineMs} ms deadline: exit in ${Math.round(at - sigtermAt)} ms`,
    );
  });
});
