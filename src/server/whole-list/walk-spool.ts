import type { ListWalk, WalkedPage, WalkEnd } from './list-walk.ts';

// Reading a walk before answering: once a body's first byte is out its status cannot change, so
// a channel's export (whose length no page states, spec §4.2) reads the whole chain into a spool
// first and answers 200 only once the chain's end is in it; otherwise the answer is a problem
// pointing to the job that can do it (shared/job-pointer.ts). The spool is bounded per export,
// for the whole process, and in time (below the HTTP edge's idle timeout). A summary reads the
// same way and folds each page. This goes once jobs serve these answers
// (docs/decisions/0005-one-whole-list-engine.md).

/** How far an export reads before it answers. */
export interface SpoolLimits {
  /** Pages of the chain one export may hold (1,000 pages: 30,000 videos). */
  maxPages: number;
  /** Bytes of the file one export may hold. */
  maxBytes: number;
  /** Bytes every export being read or sent holds together, in this process. */
  totalBytes: number;
}

const MiB = 2 ** 20;

/**
 * The demo's big channel exports whole in any format, as do lists a few times as long; a list
 * past this is exported as a job. A few such files at once fit within the working room the
 * memory plan leaves beside the cache (process/memory-plan.ts).
 */
export const SPOOL_LIMITS: SpoolLimits = {
  maxPages: 1_000,
  maxBytes: 16 * MiB,
  totalBytes: 48 * MiB,
};

/** The part of the idle timeout a walk may take before the first byte of its answer. */
const SHARE_OF_IDLE = 2 / 3;

/**
 * How long a walk may read before its answer's first byte: well within the edge's idle timeout
 * (HTTP_IDLE_TIMEOUT_MS), which would otherwise destroy the quiet socket, and any proxy's
 * waiting for headers.
 */
export const readWithinMs = (idleMs: number) => Math.max(1_000, Math.floor(idleMs * SHARE_OF_IDLE));

/** The bytes every spool of this process holds, against `SpoolLimits.totalBytes`. */
export interface SpoolRoom {
  /** Counts `bytes` more, or false (counting nothing) when they do not fit. */
  take(bytes: number): boolean;
  give(bytes: number): void;
  readonly held: number;
}

export function createSpoolRoom(totalBytes: number): SpoolRoom {
  let held = 0;
  return {
    take(bytes) {
      if (held + bytes > totalBytes) return false;
      held += bytes;
      return true;
    },
    give(bytes) {
      held = Math.max(0, held - bytes);
    },
    get held() {
      return held;
    },
  };
}

/** The chain ends with this page: a walk asked for nothing more would end complete (list-walk.ts). */
const isLastPage = (walked: WalkedPage) =>
  walked.page.continuation === null || walked.page.continuation === '';

export type WalkRead =
  /**
   * The walk ended. When it reached the chain's end the walk may still be open (its last page
   * was recognised, and nothing more asked of it), so that what was read can be sent under it:
   * the caller releases it.
   */
  | { kind: 'end'; end: WalkEnd }
  /** `onPage` gave a reason to stop; the walk is released. */
  | { kind: 'stopped'; reason: string }
  /** `withinMs` passed first; the walk is released. */
  | { kind: 'late' };

/**
 * Reads `walk` a page at a time, handing each to `onPage` (which returns a reason to stop, or
 * nothing), until the chain's end, until the walk ends early, or for `withinMs` at most.
 */
export async function readWalk(
  walk: ListWalk,
  onPage: (walked: WalkedPage) => string | undefined,
  withinMs: number,
): Promise<WalkRead> {
  const LATE = Symbol('late');
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<typeof LATE>((resolve) => {
    timer = setTimeout(() => resolve(LATE), withinMs);
  });
  try {
    for (;;) {
      const next = walk.next();
      // A page still on its way when time runs out is not waited for, nor its failure heard.
      next.catch(() => undefined);
      const step = await Promise.race([next, late]);
      if (step === LATE) {
        walk.release();
        return { kind: 'late' };
      }
      if (step.done) return { kind: 'end', end: step.end };
      const stop = onPage(step.value);
      if (stop !== undefined) {
        walk.release();
        return { kind: 'stopped', reason: stop };
      }
      if (isLastPage(step.value)) return { kind: 'end', end: { complete: true, stoppedBy: null } };
    }
  } catch (error) {
    walk.release();
    throw error;
  } finally {
    clearTimeout(timer);
  }
}

/** Why a spool stopped taking pages. */
export type SpoolFull = 'pages' | 'bytes' | 'room';

/** An export's file, written page by page into memory within its limits. */
export interface Spool {
  /** Adds `text` to the file, or says which limit it would pass (then the spool holds on). */
  add(text: string, pages: number): SpoolFull | undefined;
  readonly bytes: number;
  /** The file's chunks, each handed over once; the room they held is given back as they go. */
  take(): Uint8Array | undefined;
  /** Gives back the room of what is still held. Idempotent. */
  drop(): void;
}

export function createSpool(limits: SpoolLimits, room: SpoolRoom): Spool {
  const encoder = new TextEncoder();
  const chunks: Uint8Array[] = [];
  let bytes = 0;
  /** Bytes still held, counted in the room. */
  let held = 0;
  return {
    add(text, pages) {
      if (pages > limits.maxPages) return 'pages';
      if (text === '') return undefined;
      const chunk = encoder.encode(text);
      if (bytes + chunk.byteLength > limits.maxBytes) return 'bytes';
      if (!room.take(chunk.byteLength)) return 'room';
      chunks.push(chunk);
      bytes += chunk.byteLength;
      held += chunk.byteLength;
      return undefined;
    },
    get bytes() {
      return bytes;
    },
    take() {
      const chunk = chunks.shift();
      if (chunk !== undefined) {
        held -= chunk.byteLength;
        room.give(chunk.byteLength);
      }
      return chunk;
    },
    drop() {
      chunks.length = 0;
      room.give(held);
      held = 0;
    },
  };
}
