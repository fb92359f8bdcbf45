import { describe, expect, it } from 'vitest';
import { createUpstreamSlots } from './slots.ts';

describe('upstream slots', () => {
  const never = () => new AbortController().signal;

  it('lets `limit` calls out, queues the next in order, and turns away past the queue', async () => {
    const slots = createUpstreamSlots({ limit: 2, queueLimit: 1 });
    const first = await slots.acquire(never());
    const second = await slots.acquire(never());
    expect(first.ok && second.ok).toBe(true);
    const waiting = slots.acquire(never());
    expect(await slots.acquire(never())).toEqual({ ok: false, reason: 'full' });
    expect(slots.stats()).toMatchObject({ active: 2, queued: 1, rejected: 1 });

    if (first.ok) first.release();
    const third = await waiting;
    expect(third.ok).toBe(true);
    expect(slots.stats()).toMatchObject({ active: 2, queued: 0 });
    if (first.ok) first.release(); // a second release changes nothing
    expect(slots.stats().active).toBe(2);
  });

  it('a waiter whose deadline passes leaves the queue at once', async () => {
    const slots = createUpstreamSlots({ limit: 1, queueLimit: 5 });
    const held = await slots.acquire(never());
    const gone = slots.acquire(AbortSignal.timeout(20));
    expect(slots.stats().queued).toBe(1);
    expect(await gone).toEqual({ ok: false, reason: 'aborted' });
    expect(slots.stats().queued).toBe(0);
    if (held.ok) held.release();
    expect(slots.stats().active).toBe(0);
  });
});
