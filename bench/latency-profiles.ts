import type { BrowserContext, Page } from '@playwright/test';

// The conditions the benches that involve the network run under. The embedded catalogue answers
// in well under a millisecond, while the real service takes 80 to 250 ms a page
// (/work/shared/spec/upstream-notes.md): a bench that only ever meets the first measures the
// explorer's own costs and none of what a reader waits for. So each such bench runs under two
// latency profiles:
//
// - **local**: the embedded catalogue as it is;
// - **remote-like**: each page waits 80–250 ms, its own wait drawn from the range by a seeded
//   generator keyed by the page (src/catalogue/fault-settings.ts), so a page waits the same in
//   the measured run and in its reference, and from one run to the next.
//
// And the app's benches also run with the page's CPU slowed four times (Chromium's own
// throttling, as its DevTools do for a mid-range phone), besides full speed.

export interface LatencyProfile {
  name: 'local' | 'remote-like' | 'latency 150 ms';
  /** The embedded catalogue's fault switches (CATALOGUE_FAULTS). */
  faults: string;
}

export const LOCAL: LatencyProfile = { name: 'local', faults: '' };
export const REMOTE_LIKE: LatencyProfile = { name: 'remote-like', faults: 'latency=80-250' };
/** A typical round trip to a remote API, every page alike: the deep link's first paint. */
export const LATENCY_150: LatencyProfile = { name: 'latency 150 ms', faults: 'latency=150' };

/** Under which the explorer's embedded catalogue (or the bench's catalogue) answers. */
export const profileEnv = (profile: LatencyProfile): Record<string, string> =>
  profile.faults === '' ? {} : { CATALOGUE_FAULTS: profile.faults };

export interface Conditions {
  profile: LatencyProfile;
  /** How many times slower the page's CPU runs (1: full speed). */
  cpuSlowdown: 1 | 4;
}

export const conditionsOf = (
  profiles: readonly LatencyProfile[],
  cpuSlowdowns: ReadonlyArray<1 | 4>,
): Conditions[] =>
  profiles.flatMap((profile) => cpuSlowdowns.map((cpuSlowdown) => ({ profile, cpuSlowdown })));

/** The conditions every bench row under them names: "[remote-like, page CPU 4× slower]". */
export function labelled(measure: string, conditions: Partial<Conditions>): string {
  const parts: string[] = [];
  if (conditions.profile !== undefined) parts.push(conditions.profile.name);
  if (conditions.cpuSlowdown === 4) parts.push('page CPU 4× slower');
  return parts.length === 0 ? measure : `${measure} [${parts.join(', ')}]`;
}

/** Slows the page's CPU (Chromium's throttling, through the DevTools protocol) for `page`. */
export async function slowCpu(
  context: BrowserContext,
  page: Page,
  cpuSlowdown: Conditions['cpuSlowdown'],
): Promise<void> {
  if (cpuSlowdown === 1) return;
  const cdp = await context.newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: cpuSlowdown });
}
