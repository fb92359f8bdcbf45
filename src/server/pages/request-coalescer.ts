// Merges identical requests in flight. The account's quota is shared by every user, so the
// explorer never spends a request twice: the first caller for a key starts the work, and
// everyone asking for the same key before it settles shares its promise, so 50 simultaneous
// cold requests cost one upstream call.

export interface RequestCoalescer<T> {
  /** The promise in flight for `key`, if any. */
  inFlight(key: string): Promise<T> | undefined;
  /** Starts `work` for `key`, shared by later callers until it settles. */
  start(key: string, work: () => Promise<T>): Promise<T>;
}

export function createRequestCoalescer<T>(): RequestCoalescer<T> {
  const flights = new Map<string, Promise<T>>();
  return {
    inFlight: (key) => flights.get(key),
    start(key, work) {
      const existing = flights.get(key);
      if (existing) return existing;
      // Started on the next microtask, so the entry exists before `work` can settle.
      const promise = Promise.resolve()
        .then(work)
        .finally(() => flights.delete(key));
      flights.set(key, promise);
      return promise;
    },
  };
}
