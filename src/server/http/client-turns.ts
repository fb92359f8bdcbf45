// Turns: clients share the server's one thread fairly, whatever their number of connections.
// Node answers requests in the order their bytes arrive, so a client holding many connections
// gets that many answers for another client's one, and a flood of cheap requests slows everyone.
// So each client starts one request per turn of the event loop; more from it wait for later
// turns, and waiting clients are served one each, in the order they began to wait. Another
// client then waits for at most one of the flooder's requests. A turn orders only when a request
// starts; what a request may spend is each allowance's business (quota/client-rate-limit.ts).

export interface ClientTurns {
  /** Runs `start` at once if `client` has not started a request this turn, else in a later one. */
  take(client: string, start: () => void): void;
  /** Requests waiting for their turn, for tests and metrics. */
  waiting(): number;
}

export function createClientTurns(): ClientTurns {
  /** Clients that have started a request this turn. */
  const started = new Set<string>();
  /** Each waiting client's requests, in order; the Map's order is the clients' order of service. */
  const queues = new Map<string, Array<() => void>>();
  let count = 0;
  let scheduled = false;

  const schedule = () => {
    if (scheduled) return;
    scheduled = true;
    // After the poll phase's sockets have been read: every client's first request of this turn
    // has started by then.
    setImmediate(nextTurn);
  };

  function nextTurn() {
    scheduled = false;
    started.clear();
    for (const client of [...queues.keys()]) {
      const queue = queues.get(client)!;
      const start = queue.shift()!;
      count--;
      // To the back of the line with what is left.
      queues.delete(client);
      if (queue.length > 0) queues.set(client, queue);
      started.add(client);
      try {
        start();
      } catch {
        // A start that throws is its caller's to answer; the other clients' turns go on.
      }
    }
    // The turn's clients are marked until the next one, which clears them.
    if (queues.size > 0 || started.size > 0) schedule();
  }

  return {
    take(client, start) {
      if (!started.has(client) && !queues.has(client)) {
        started.add(client);
        schedule();
        start();
        return;
      }
      const queue = queues.get(client);
      if (queue) queue.push(start);
      else queues.set(client, [start]);
      count++;
      schedule();
    },
    waiting: () => count,
  };
}
