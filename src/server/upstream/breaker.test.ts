import { describe, expect, it } from 'vitest';
import { createUpstreamBreaker, type BreakerPass, type UpstreamBreaker } from './breaker.ts';

// The breaker alone, on a clock of its own: the key's trial (one call while the credentials are
// not yet seen accepted, the others waiting for it), a refusal opening it for every page at
// once, its probes, and the failures of the upstream as a whole.

type Granted = Extract<BreakerPass, { ok: true }>;

function breakerAt(options: { trialWaitMs?: number } = {}) {
  let clock = 1_000_000;
  const breaker = createUpstreamBreaker({
    threshold: 3,
    openMs: 5000,
    maxOpenMs: 40_000,
    now: () => clock,
    ...options,
  });
  return { breaker, advance: (ms: number) => (clock += ms) };
}

/** A pass given at once (not a promise), granted. */
function granted(pass: BreakerPass | Promise<BreakerPass>): Granted {
  expect(pass).not.toBeInstanceOf(Promise);
  const given = pass as BreakerPass;
  expect(given.ok).toBe(true);
  return given as Granted;
}

/** Whether a promise has settled by the time pending callbacks have run. */
async function settled<T>(promise: Promise<T>): Promise<boolean> {
  let done = false;
  void promise.then(() => (done = true));
  await new Promise((resolve) => setImmediate(resolve));
  return done;
}

/** A breaker whose key has been accepted: every call goes at once. */
function accepted(breaker: UpstreamBreaker) {
  breaker.record(granted(breaker.pass()), 'success', 'first');
}

describe('the trial of the credentials', () => {
  it('the first call is the trial; the others wait for it, and go once the key is accepted', async () => {
    const { breaker } = breakerAt();
    const trial = granted(breaker.pass());
    expect(trial.trial).toBe(true);
    const waiting = [breaker.pass(), breaker.pass(), breaker.pass()];
    for (const pass of waiting) expect(pass).toBeInstanceOf(Promise);
    expect(await settled(waiting[0] as Promise<BreakerPass>)).toBe(false);
    expect(breaker.stats().waiting).toBe(3);

    breaker.record(trial, 'success', 'a');
    for (const pass of await Promise.all(waiting))
      expect(pass).toEqual({ ok: true, probe: false, trial: false });
    expect(breaker.stats()).toMatchObject({ credentials: 'accepted', waiting: 0 });
    // From now on, every call at once.
    expect(granted(breaker.pass()).trial).toBe(false);
    expect(granted(breaker.pass()).trial).toBe(false);
  });

  it('a 400 or 404 accepts the key too: a definite answer about the input', () => {
    const { breaker } = breakerAt();
    breaker.record(granted(breaker.pass()), 'success', 'a');
    expect(breaker.stats().credentials).toBe('accepted');
  });

  it('a refused trial turns away everyone waiting, with the reason and the time to the probe', async () => {
    const { breaker } = breakerAt();
    const trial = granted(breaker.pass());
    const waiting = Array.from({ length: 99 }, () => breaker.pass());
    breaker.record(trial, 'refused', 'a');
    for (const pass of await Promise.all(waiting))
      expect(pass).toEqual({ ok: false, reason: 'credentials', retryAfterSeconds: 5 });
    expect(breaker.stats()).toMatchObject({
      state: 'open',
      reason: 'credentials',
      credentials: 'refused',
      rejections: 1,
    });
    // Arriving later: turned away at once.
    expect(breaker.pass()).toEqual({ ok: false, reason: 'credentials', retryAfterSeconds: 5 });
  });

  it('a trial never sent hands the trial on to one of those waiting; the rest wait on', async () => {
    const { breaker } = breakerAt();
    const first = granted(breaker.pass());
    const [a, b] = [breaker.pass(), breaker.pass()] as Array<Promise<BreakerPass>>;
    breaker.record(first, 'neutral', 'a');
    const next = (await a) as Granted;
    expect(next).toEqual({ ok: true, probe: false, trial: true });
    expect(await settled(b!)).toBe(false);
    breaker.record(next, 'refused', 'b');
    expect(await b).toMatchObject({ ok: false, reason: 'credentials' });
  });

  it('a trial that fails says nothing of the key: those waiting go, and the next arrival is a trial', async () => {
    const { breaker } = breakerAt();
    const first = granted(breaker.pass());
    const waiting = [breaker.pass(), breaker.pass()];
    breaker.record(first, 'failure', 'a');
    for (const pass of await Promise.all(waiting))
      expect(pass).toEqual({ ok: true, probe: false, trial: false });
    expect(breaker.stats().credentials).toBe('unknown');
    expect(granted(breaker.pass()).trial).toBe(true);
  });

  it('a caller waits trialWaitMs at most, then goes; a trial out that long is given up', async () => {
    const { breaker, advance } = breakerAt({ trialWaitMs: 50 });
    const stuck = granted(breaker.pass());
    expect(stuck.trial).toBe(true);
    const started = performance.now();
    const waiting = breaker.pass();
    advance(50); // the breaker's clock, for the trial's age; the wait itself is real time
    expect(await waiting).toEqual({ ok: true, probe: false, trial: false });
    expect(performance.now() - started).toBeGreaterThanOrEqual(45);
    // The next arrival is a trial of its own, not held behind the lost one.
    expect(granted(breaker.pass()).trial).toBe(true);
  });
});

describe('refused credentials, once the key was accepted', () => {
  it('one refusal opens the breaker for every page at once; one probe after openMs', () => {
    const { breaker, advance } = breakerAt();
    accepted(breaker);
    const calls = [granted(breaker.pass()), granted(breaker.pass()), granted(breaker.pass())];
    breaker.record(calls[0]!, 'refused', 'a');
    expect(breaker.stats()).toMatchObject({ state: 'open', reason: 'credentials' });
    // Calls sent before it opened change nothing when they end.
    breaker.record(calls[1]!, 'success', 'b');
    breaker.record(calls[2]!, 'refused', 'c');
    expect(breaker.stats()).toMatchObject({ state: 'open', reason: 'credentials' });

    advance(2000);
    expect(breaker.pass()).toEqual({ ok: false, reason: 'credentials', retryAfterSeconds: 3 });
    advance(3000);
    const probe = granted(breaker.pass());
    expect(probe.probe).toBe(true);
    expect(breaker.pass()).toEqual({ ok: false, reason: 'credentials', retryAfterSeconds: 1 });

    // Refused again: open twice as long.
    breaker.record(probe, 'refused', 'd');
    expect(breaker.stats()).toMatchObject({ state: 'open', openMs: 10_000 });
    expect(breaker.pass()).toEqual({ ok: false, reason: 'credentials', retryAfterSeconds: 10 });

    // Accepted: closed, and every call goes at once again.
    advance(10_000);
    breaker.record(granted(breaker.pass()), 'success', 'e');
    expect(breaker.stats()).toMatchObject({
      state: 'closed',
      reason: null,
      credentials: 'accepted',
      openMs: 5000,
    });
    expect(granted(breaker.pass()).trial).toBe(false);
  });

  it('a probe that meets a failing upstream opens it for that reason', () => {
    const { breaker, advance } = breakerAt();
    accepted(breaker);
    breaker.record(granted(breaker.pass()), 'refused', 'a');
    advance(5000);
    breaker.record(granted(breaker.pass()), 'failure', 'b');
    expect(breaker.stats()).toMatchObject({ state: 'open', reason: 'failing' });
    expect(breaker.pass()).toMatchObject({ ok: false, reason: 'failing' });
  });
});

describe('failures of the upstream as a whole', () => {
  it('opens after `threshold` different pages fail in a row, not for one page failing often', () => {
    const { breaker } = breakerAt();
    accepted(breaker);
    for (let i = 0; i < 5; i++) breaker.record(granted(breaker.pass()), 'failure', 'same');
    expect(breaker.stats().state).toBe('closed');
    breaker.record(granted(breaker.pass()), 'failure', 'other');
    breaker.record(granted(breaker.pass()), 'failure', 'third');
    expect(breaker.stats()).toMatchObject({ state: 'open', reason: 'failing' });
    expect(breaker.pass()).toEqual({ ok: false, reason: 'failing', retryAfterSeconds: 5 });
  });

  it('another replica’s opening opens a closed breaker for that long', () => {
    const { breaker, advance } = breakerAt();
    accepted(breaker);
    breaker.openFor(2000);
    expect(breaker.pass()).toEqual({ ok: false, reason: 'failing', retryAfterSeconds: 2 });
    advance(2000);
    expect(granted(breaker.pass()).probe).toBe(true);
  });
});
