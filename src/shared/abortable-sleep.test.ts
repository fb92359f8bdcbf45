import { describe, expect, it } from 'vitest';
import { abortableSleep } from './abortable-sleep.ts';

describe('abortableSleep', () => {
  it('waits its time', async () => {
    const started = performance.now();
    await abortableSleep(30, new AbortController().signal);
    expect(performance.now() - started).toBeGreaterThanOrEqual(25);
  });

  it('ends at once when aborted, before or during the wait', async () => {
    const before = new AbortController();
    before.abort();
    const during = new AbortController();
    const started = performance.now();
    const waits = [abortableSleep(60_000, before.signal), abortableSleep(60_000, during.signal)];
    during.abort();
    await Promise.all(waits);
    expect(performance.now() - started).toBeLessThan(1_000);
  });
});
