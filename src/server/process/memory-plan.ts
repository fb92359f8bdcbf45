// What resident memory this process will need, from its settings, said once at start so that an
// operator can size a container (docs/reliability.md has the measurements behind the figures).
// Pages and renders are Buffers outside V8's heap, so the cache adds to resident memory on its
// own, beside a heap that stays small; V8's heap limit (`--max-old-space-size`) bounds only
// the rest. A cache that cannot fit in the container beside the process itself is refused at
// start, rather than found out by the kernel's OOM killer under load.

const MB = 2 ** 20;
/**
 * A warm process (embedded catalogue, the views served, the big lists exported) without its
 * cache, as bench memory measures the built server with two malloc arenas as npm start runs it
 * (start.ts; the figures are in docs/benchmarks.md).
 */
export const BASELINE_MB = 200;
/** Room for bursts: renders in flight, walks' buffers, a collection's garbage. */
export const WORKING_ROOM_MB = 50;
/** Below this heap limit V8 collects so often that walks slow down (docs/benchmarks.md). */
export const HEAP_FLOOR_MB = 512;

/**
 * A cache beside the page cache, with its bound and the bytes that bound lets it hold (the
 * renders kept with pages, and their previews, are charged to the page cache itself).
 */
export interface SideCache {
  name: string;
  bound: string;
  bytes: number;
}

export interface MemoryPlan {
  cacheMb: number;
  /** The other caches, each at its bound. */
  sideCaches: readonly SideCache[];
  sideMb: number;
  heapLimitMb: number;
  /** What the container should allow this process. */
  needMb: number;
  /** The container's limit (cgroup), when there is one. */
  containerMb: number | null;
  /** `cannot`: the cache alone does not fit beside the process; `tight`: no working room. */
  verdict: 'fits' | 'tight' | 'cannot';
  /** What to change, when the verdict is not `fits` or the heap limit is under its floor. */
  advice: string[];
}

export function memoryPlan(input: {
  cacheMaxBytes: number;
  /** v8.getHeapStatistics().heap_size_limit */
  heapLimitBytes: number;
  /** process.constrainedMemory(): 0, or 2^64 and the like, when there is no limit. */
  containerBytes: number;
  sideCaches?: readonly SideCache[];
}): MemoryPlan {
  const sideCaches = input.sideCaches ?? [];
  const sideMb = Math.ceil(sideCaches.reduce((sum, cache) => sum + cache.bytes, 0) / MB);
  const cacheMb = Math.ceil(input.cacheMaxBytes / MB);
  const heapLimitMb = Math.floor(input.heapLimitBytes / MB);
  const containerMb =
    input.containerBytes > 0 && input.containerBytes < 2 ** 50
      ? Math.floor(input.containerBytes / MB)
      : null;
  // What the process holds whatever the traffic: itself, its caches full, and room for bursts.
  const heldMb = BASELINE_MB + cacheMb + sideMb;
  const needMb = heldMb + WORKING_ROOM_MB;
  const advice: string[] = [];
  let verdict: MemoryPlan['verdict'] = 'fits';
  if (containerMb !== null && heldMb > containerMb) {
    verdict = 'cannot';
    advice.push(
      `CACHE_MAX_BYTES (${cacheMb} MiB) does not fit in the container's ${containerMb} MiB beside the process and its other caches (${BASELINE_MB + sideMb} MiB): allow ${needMb} MiB, or lower it to ${Math.max(0, containerMb - BASELINE_MB - sideMb - WORKING_ROOM_MB)} MiB`,
    );
  } else if (containerMb !== null && needMb > containerMb) {
    verdict = 'tight';
    advice.push(
      `the container's ${containerMb} MiB leaves less than ${WORKING_ROOM_MB} MiB of working room: allow ${needMb} MiB, or lower CACHE_MAX_BYTES`,
    );
  }
  if (heapLimitMb < HEAP_FLOOR_MB)
    advice.push(
      `V8's heap limit is ${heapLimitMb} MiB: under ${HEAP_FLOOR_MB} MiB whole-list walks slow down; npm start gives 1 GiB (--max-old-space-size=1024)`,
    );
  return { cacheMb, sideCaches, sideMb, heapLimitMb, needMb, containerMb, verdict, advice };
}
