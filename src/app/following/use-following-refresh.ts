import { useCallback, useEffect, useRef, useState, useSyncExternalStore } from 'react';
import {
  feedCostsPath,
  feedCostsSchema,
  refreshSeconds,
  type FeedCosts,
  type LookupRange,
} from '../../shared/feed-costs.ts';
import { UPDATES_MAX_LISTS } from '../../shared/feeds.ts';
import type { Problem } from '../../shared/problem.ts';
import { request } from '../api/api-client.ts';
import { follows, keyOf, type FollowedList } from './follow-store.ts';
import { compare, refreshAll, seenOf, type FeedEntry, type ListUpdate } from './list-updates.ts';

// The Following view's reading of its lists: each list's result, what a refresh would cost and
// take, and how far one has come. Lists not yet read are read when they appear (on arrival, an
// import, another tab's follow); lists older than STALE_MS when the page is shown again. Before
// spending it asks the server what the lists would cost (free): a refresh the browser's allowance
// pays at once starts by itself, a longer one waits for the reader's word, while lists the
// server holds fresh are read at once. A refused catalogue key stops it, said once.

export type Result =
  | { state: 'done'; update: ListUpdate; entries: FeedEntry[]; lookups: number; at: number }
  | { state: 'failed'; error: unknown; at: number };

export interface Estimate {
  lists: number;
  lookups: { min: number; max: number };
  /** Seconds of waiting for the allowance and the window's share: at least, at most. */
  seconds: { min: number; max: number };
}

export interface Progress {
  total: number;
  done: number;
  lookups: number;
  startedAt: number;
  /** Seconds left, once enough lists are in to say. */
  secondsLeft: number | null;
}

export type Phase =
  | { kind: 'idle' }
  | { kind: 'estimating' }
  /** A refresh too long to start unasked: its cost, and the lists it would read. */
  | { kind: 'asking'; estimate: Estimate; lists: FollowedList[] }
  | { kind: 'running'; estimate: Estimate | null }
  | { kind: 'refused'; problem: Problem | null };

/** Waits a refresh may take before it asks the reader first. */
export const ASK_OVER_SECONDS = 10;
/** A list read longer ago than this is read again when the page shows again. */
export const STALE_MS = 5 * 60_000;
/** Redraws while lines stream in: at most this often. */
const REDRAW_MS = 100;
/** Baselines of lists seen for the first time are written at most this often. */
const SAVE_SEEN_MS = 2_000;

/** What `lists` cost, by list, and the allowance and window they were priced at. */
interface Priced {
  byList: Map<string, LookupRange>;
  terms: Pick<FeedCosts, 'allowance' | 'window'>;
}

/** The cost of `lists`, from the server, in requests of at most UPDATES_MAX_LISTS. */
async function fetchCosts(lists: readonly FollowedList[], signal: AbortSignal): Promise<Priced> {
  const chunks: FollowedList[][] = [];
  for (let at = 0; at < lists.length; at += UPDATES_MAX_LISTS)
    chunks.push(lists.slice(at, at + UPDATES_MAX_LISTS));
  const answers = await Promise.all(
    chunks.map(async (chunk) => {
      const response = await request(feedCostsPath(chunk), signal);
      return feedCostsSchema.parse(await response.json());
    }),
  );
  const byList = new Map<string, LookupRange>();
  for (const answer of answers)
    for (const { list, lookups } of answer.lists) byList.set(list.replace(':', ' '), lookups);
  return { byList, terms: answers[0]! };
}

/** The mutable map of results, with a subscription the view redraws on, throttled. */
function createResults() {
  const map = new Map<string, Result>();
  const listeners = new Set<() => void>();
  let version = 0;
  let timer: ReturnType<typeof setTimeout> | null = null;
  const flush = () => {
    timer = null;
    version++;
    listeners.forEach((listener) => listener());
  };
  return {
    map,
    set(key: string, result: Result) {
      map.set(key, result);
      timer ??= setTimeout(flush, REDRAW_MS);
    },
    clear() {
      map.clear();
      flush();
    },
    subscribe(listener: () => void) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    version: () => version,
  };
}

export function useFollowingRefresh(lists: readonly FollowedList[], hydrated: boolean) {
  const [results] = useState(createResults);
  useSyncExternalStore(results.subscribe, results.version, results.version);
  const [phase, setPhase] = useState<Phase>({ kind: 'idle' });
  const [progress, setProgress] = useState<Progress | null>(null);
  const [paused, setPaused] = useState<{ seconds: number; why: 'server' | 'backoff' } | null>(null);
  const inFlight = useRef(new Set<string>());
  const running = useRef(new Set<AbortController>());
  const refused = useRef(false);

  // Baselines of lists never seen before, written together, a few times a minute at most.
  const baselines = useRef<Parameters<typeof follows.markSeen>[0][number][]>([]);
  const saveTimer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const noteBaseline = (list: FollowedList, entries: FeedEntry[], title: string) => {
    baselines.current.push({ list, seen: seenOf(entries), title });
    saveTimer.current ??= setTimeout(() => {
      saveTimer.current = null;
      follows.markSeen(baselines.current.splice(0));
    }, SAVE_SEEN_MS);
  };

  /** Reads `targets` now; what the estimate said, for the progress line. */
  const run = useCallback(
    (targets: readonly FollowedList[], estimate: Estimate | null) => {
      const controller = new AbortController();
      running.current.add(controller);
      for (const list of targets) inFlight.current.add(keyOf(list));
      const startedAt = Date.now();
      const tally = { done: 0, lookups: 0 };
      setPhase({ kind: 'running', estimate });
      setProgress({ total: targets.length, done: 0, lookups: 0, startedAt, secondsLeft: null });
      let progressTimer: ReturnType<typeof setTimeout> | null = null;
      const showProgress = () => {
        progressTimer = null;
        const elapsed = (Date.now() - startedAt) / 1000;
        const left = targets.length - tally.done;
        // From the pace so far, once it says something; before that, from the estimate.
        const secondsLeft =
          tally.done >= 5 && elapsed >= 2
            ? Math.round((elapsed / tally.done) * left)
            : estimate
              ? Math.max(0, estimate.seconds.min - elapsed)
              : null;
        setProgress({ total: targets.length, ...tally, startedAt, secondsLeft });
      };
      void refreshAll(targets, controller.signal, {
        onList(list, result) {
          inFlight.current.delete(keyOf(list));
          tally.done++;
          const at = Date.now();
          if ('error' in result)
            results.set(keyOf(list), { state: 'failed', error: result.error, at });
          else {
            tally.lookups += result.lookups;
            // A feed names a channel by its ID when the server has not seen its name: the
            // name the reader followed it by stays.
            const title = result.title && result.title !== list.id ? result.title : list.title;
            results.set(keyOf(list), {
              state: 'done',
              update: compare(result.entries, title, list.seen),
              entries: result.entries,
              lookups: result.lookups,
              at,
            });
            // A list never seen before: this visit is where "new" starts from.
            if (list.seen === null) noteBaseline(list, result.entries, title);
          }
          progressTimer ??= setTimeout(showProgress, REDRAW_MS);
        },
        onPause(seconds, why = 'server') {
          setPaused(seconds === null ? null : { seconds, why });
        },
        onRefused(problem) {
          refused.current = true;
          for (const other of running.current) other.abort();
          setPhase({ kind: 'refused', problem });
        },
      }).finally(() => {
        for (const list of targets) inFlight.current.delete(keyOf(list));
        running.current.delete(controller);
        if (progressTimer !== null) clearTimeout(progressTimer);
        showProgress();
        setPaused(null);
        if (!refused.current && running.current.size === 0) setPhase({ kind: 'idle' });
      });
    },
    [results],
  );

  /**
   * Asks what `targets` cost; reads the free ones at once, and the rest too when the allowance
   * pays for them within ASK_OVER_SECONDS (or the reader asked: `asked`), else asks first.
   */
  const plan = useCallback(
    async (targets: readonly FollowedList[], asked: boolean) => {
      if (targets.length === 0) return;
      for (const list of targets) inFlight.current.add(keyOf(list));
      const controller = new AbortController();
      running.current.add(controller);
      setPhase((now) => (now.kind === 'running' ? now : { kind: 'estimating' }));
      let priced: Priced | null = null;
      try {
        priced = await fetchCosts(targets, controller.signal);
      } catch {
        // No estimate to be had: the refresh goes on, paced by the server, and says so.
      } finally {
        running.current.delete(controller);
        for (const list of targets) inFlight.current.delete(keyOf(list));
      }
      if (controller.signal.aborted || refused.current) return;
      const free: FollowedList[] = [];
      const paid: FollowedList[] = [];
      let min = 0;
      let max = 0;
      for (const list of targets) {
        const cost = priced?.byList.get(keyOf(list)) ?? { min: 1, max: 1 };
        min += cost.min;
        max += cost.max;
        (cost.max === 0 ? free : paid).push(list);
      }
      const terms = priced?.terms;
      const seconds = {
        min: terms ? refreshSeconds(min, terms) : 0,
        max: terms ? refreshSeconds(max, terms) : 0,
      };
      const estimate: Estimate = { lists: targets.length, lookups: { min, max }, seconds };
      if (asked || seconds.max <= ASK_OVER_SECONDS) return run(targets, estimate);
      const none = { min: 0, max: 0 };
      if (free.length > 0) run(free, { lists: free.length, lookups: none, seconds: none });
      setPhase({
        kind: 'asking',
        estimate: { ...estimate, lists: paid.length },
        lists: paid,
      });
    },
    [run],
  );

  // Lists not read yet (arrival, an import, another tab), read as they appear.
  useEffect(() => {
    if (!hydrated || refused.current || phase.kind === 'asking') return;
    const unread = lists.filter((list) => {
      const key = keyOf(list);
      return !results.map.has(key) && !inFlight.current.has(key);
    });
    void plan(unread, false);
  }, [hydrated, lists, plan, results, phase.kind]);

  // Back on the page after a while: what has gone stale is read again.
  useEffect(() => {
    const onVisible = () => {
      if (document.visibilityState !== 'visible' || refused.current) return;
      const stale = follows.get().filter((list) => {
        const key = keyOf(list);
        const result = results.map.get(key);
        return (
          result !== undefined && Date.now() - result.at > STALE_MS && !inFlight.current.has(key)
        );
      });
      void plan(stale, false);
    };
    document.addEventListener('visibilitychange', onVisible);
    return () => document.removeEventListener('visibilitychange', onVisible);
  }, [plan, results]);

  // Leaving stops what is under way; the baselines noted so far are written.
  useEffect(
    () => () => {
      for (const controller of running.current) controller.abort();
      if (saveTimer.current !== null) clearTimeout(saveTimer.current);
      follows.markSeen(baselines.current.splice(0));
    },
    [],
  );

  return {
    results: results.map,
    phase,
    progress,
    paused,
    /** Everything again, now: the reader asked. */
    refreshAll() {
      for (const controller of running.current) controller.abort();
      inFlight.current.clear();
      refused.current = false;
      void plan(follows.get(), true);
    },
    /** The refresh the view asked about: go ahead. */
    confirm() {
      if (phase.kind !== 'asking') return;
      // With any list followed since the question, not read yet either.
      const asked = new Set(phase.lists.map(keyOf));
      const unread = follows
        .get()
        .filter((list) => !results.map.has(keyOf(list)) && !inFlight.current.has(keyOf(list)));
      const extra = unread.filter((list) => !asked.has(keyOf(list)));
      run([...phase.lists, ...extra], phase.estimate);
    },
  };
}
