import { describe, expect, it } from 'vitest';
import { createRoundTrip, timedUpstream } from './round-trip.ts';
import type { UpstreamClient, UpstreamResult } from './client.ts';

describe('the upstream’s round trip', () => {
  it('is the prior until a few calls are timed, then their median', () => {
    const roundTrip = createRoundTrip(150);
    expect(roundTrip.typicalMs()).toBe(150);
    roundTrip.observe(4);
    roundTrip.observe(2);
    expect(roundTrip.typicalMs()).toBe(150);
    roundTrip.observe(900);
    expect(roundTrip.typicalMs()).toBe(4);
  });

  it('follows the latest calls: a service that slows down is seen as slow', () => {
    const roundTrip = createRoundTrip(0);
    for (let i = 0; i < 16; i++) roundTrip.observe(3);
    for (let i = 0; i < 8; i++) roundTrip.observe(200);
    expect(roundTrip.typicalMs()).toBe(200);
    for (let i = 0; i < 8; i++) roundTrip.observe(5);
    expect(roundTrip.typicalMs()).toBe(200);
    roundTrip.observe(5);
    expect(roundTrip.typicalMs()).toBe(5);
  });

  it('times answered calls alone: a failure or a retried call says nothing of the pace', async () => {
    const roundTrip = createRoundTrip(150);
    const answers: UpstreamResult[] = [
      { ok: false, failure: { kind: 'timeout' } as never, attempts: 1 },
      { ok: true, attempts: 2 } as UpstreamResult,
      { ok: true, attempts: 1 } as UpstreamResult,
    ];
    const answering: Pick<UpstreamClient, 'fetchPage'> = {
      fetchPage: () => Promise.resolve(answers.shift()!),
    };
    const upstream = timedUpstream(answering, roundTrip);
    for (let i = 0; i < 3; i++) await upstream.fetchPage({} as never);
    expect(roundTrip.typicalMs()).toBe(150);
  });
});
