import { describe, expect, it } from 'vitest';
import { BASELINE_MB, memoryPlan, WORKING_ROOM_MB } from './memory-plan.ts';
import { sideCaches } from './side-caches.ts';

const MB = 2 ** 20;
const GB_HEAP = 1120 * MB; // what --max-old-space-size=1024 gives

describe('the memory plan said at start', () => {
  it('needs the process, the cache and working room; no container: it fits', () => {
    const plan = memoryPlan({
      cacheMaxBytes: 64 * MB,
      heapLimitBytes: GB_HEAP,
      containerBytes: 2 ** 64,
    });
    expect(plan).toMatchObject({
      cacheMb: 64,
      needMb: BASELINE_MB + 64 + WORKING_ROOM_MB,
      containerMb: null,
      verdict: 'fits',
      advice: [],
    });
    expect(
      memoryPlan({ cacheMaxBytes: 64 * MB, heapLimitBytes: GB_HEAP, containerBytes: 0 })
        .containerMb,
    ).toBeNull();
  });

  it('the defaults, every cache at its bound and cards drawn, fit in 494 MiB, as the docs say', () => {
    const plan = memoryPlan({
      cacheMaxBytes: 64 * MB,
      heapLimitBytes: GB_HEAP,
      containerBytes: 494 * MB,
      sideCaches: sideCaches(),
    });
    expect(plan).toMatchObject({ needMb: 494, verdict: 'fits' });
    expect(plan.sideCaches.map((cache) => cache.name)).toContain('preview cards');
    expect(plan.sideCaches.map((cache) => cache.name)).toContain(
      'drawing cards (libvips, Pango, the card fonts)',
    );
  });

  it('a container without working room is tight, one the cache cannot fit in is refused, with what to set', () => {
    const tight = memoryPlan({
      cacheMaxBytes: 128 * MB,
      heapLimitBytes: GB_HEAP,
      containerBytes: 360 * MB,
    });
    expect(tight.verdict).toBe('tight');
    expect(tight.advice[0]).toMatch(/allow 378 MiB/);
    const cannot = memoryPlan({
      cacheMaxBytes: 512 * MB,
      heapLimitBytes: GB_HEAP,
      containerBytes: 512 * MB,
    });
    expect(cannot.verdict).toBe('cannot');
    expect(cannot.advice[0]).toMatch(/allow 762 MiB, or lower it to 262 MiB/);
  });

  it('counts every other cache at its bound, and refuses a container they leave no room in', () => {
    const sideCaches = [
      { name: 'preview cards', bound: '16 MiB of PNG', bytes: 16 * MB },
      { name: 'feed tails', bound: '8 MiB', bytes: 8 * MB },
    ];
    const plan = memoryPlan({
      cacheMaxBytes: 64 * MB,
      heapLimitBytes: GB_HEAP,
      containerBytes: 0,
      sideCaches,
    });
    expect(plan).toMatchObject({ sideMb: 24, needMb: BASELINE_MB + 64 + 24 + WORKING_ROOM_MB });
    expect(plan.sideCaches).toEqual(sideCaches);
    const cannot = memoryPlan({
      cacheMaxBytes: 64 * MB,
      heapLimitBytes: GB_HEAP,
      containerBytes: (BASELINE_MB + 64 + 10) * MB,
      sideCaches,
    });
    expect(cannot.verdict).toBe('cannot');
  });

  it('a heap limit under the floor is pointed out', () => {
    const plan = memoryPlan({
      cacheMaxBytes: 64 * MB,
      heapLimitBytes: 256 * MB,
      containerBytes: 0,
    });
    expect(plan.verdict).toBe('fits');
    expect(plan.advice[0]).toMatch(/heap limit is 256 MiB/);
  });
});
