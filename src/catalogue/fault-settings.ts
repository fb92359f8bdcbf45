import { z } from 'zod';
import { endpointNames, type EndpointName } from '../shared/endpoints.ts';
import { createRandom } from './random.ts';

// Fault switches (spec §5.3), off by default: they let tests and demos meet a real upstream's
// failures (latency, 500, 429, a cut-off body) on demand. Set at start-up from CATALOGUE_FAULTS
// ("latency=200,500=0.1,429=0.05,malformed=0.02,retry-after=3") or at run time through PUT
// /__faults when enabled; `failNext`, for browser tests, fails the next `count` matching lookups.
// A latency range (`latency=80-250`) draws each page's wait from a generator seeded by the page
// itself, so a page waits the same on every run, from every client and catalogue process: two
// clients following one chain meet the same waits, which the benchmarks rely on.

const rate = z.number().min(0).max(1);

const failNextSchema = z.object({
  count: z.number().int().min(1).max(1000),
  status: z.union([z.literal(500), z.literal(503), z.literal(429), z.literal('malformed')]),
  endpoint: z.enum(endpointNames as [EndpointName, ...EndpointName[]]).optional(),
  withContinuation: z.boolean().optional(),
});

const latency = z.number().int().min(0).max(60_000);

export const faultSettingsSchema = z.object({
  /** Every lookup waits this long; with `latencyMaxMs`, the least a lookup waits. */
  latencyMs: latency,
  /** The most a lookup waits: each page's wait is drawn from the range (null: fixed). */
  latencyMaxMs: latency.nullable(),
  /** Seeds the draws of a latency range. */
  latencySeed: z
    .number()
    .int()
    .min(0)
    .max(2 ** 32 - 1),
  error500Rate: rate,
  rate429Rate: rate,
  malformedRate: rate,
  retryAfterSeconds: z.number().int().min(0).max(3600),
  failNext: failNextSchema.nullable(),
  /**
   * Added to a playlist's stated `totalItems`: the real service's count is often off (deleted
   * and private videos are counted but not listed), and clients must cope with either sign.
   */
  totalItemsSkew: z.number().int().min(-100_000).max(100_000),
  /**
   * A playlist gains `count` new items at its end, on its last page (as far as that page has
   * room): what a list someone follows does between two visits.
   */
  appendItems: z
    .object({ playlistId: z.string().min(1), count: z.number().int().min(1).max(100) })
    .nullable(),
});

export type FaultSettings = z.infer<typeof faultSettingsSchema>;

export const NO_FAULTS: FaultSettings = {
  latencyMs: 0,
  latencyMaxMs: null,
  latencySeed: 1,
  error500Rate: 0,
  rate429Rate: 0,
  malformedRate: 0,
  retryAfterSeconds: 2,
  failNext: null,
  totalItemsSkew: 0,
  appendItems: null,
};

const SPEC_KEYS: Record<
  string,
  keyof Omit<FaultSettings, 'failNext' | 'latencyMaxMs' | 'appendItems'>
> = {
  'total-skew': 'totalItemsSkew',
  latency: 'latencyMs',
  'latency-seed': 'latencySeed',
  '500': 'error500Rate',
  '429': 'rate429Rate',
  malformed: 'malformedRate',
  'retry-after': 'retryAfterSeconds',
};

/**
 * Parses "latency=200,500=0.1,429=0.05,malformed=0.02" (a latency may be a range, "80-250");
 * throws with a readable message.
 */
export function parseFaultSpec(spec: string): Partial<FaultSettings> {
  const settings: Record<string, number> = {};
  for (const part of spec
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean)) {
    const [name, text] = part.split('=');
    const range = name === 'latency' ? /^(\d+)-(\d+)$/.exec(text ?? '') : null;
    if (range !== null) {
      const [least, most] = [Number(range[1]), Number(range[2])];
      if (least > most) throw new Error(`CATALOGUE_FAULTS: "${part}" is a range from high to low`);
      settings.latencyMaxMs = most;
    }
    const value = range?.[1] ?? text;
    const key = name === undefined ? undefined : SPEC_KEYS[name];
    const number = Number(value);
    if (!key || value === undefined || value === '' || !Number.isFinite(number)) {
      throw new Error(
        `CATALOGUE_FAULTS: cannot read "${part}" (known: ${Object.keys(SPEC_KEYS).join(', ')})`,
      );
    }
    settings[key] = number;
  }
  return faultSettingsSchema.partial().parse(settings);
}

/** A 32-bit FNV-1a hash: spreads a page's name over the generator's seeds. */
function hash32(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/** How long the lookup of `page` (its list and place, named by the caller) waits. */
export function latencyFor(settings: FaultSettings, page: string): number {
  const { latencyMs, latencyMaxMs, latencySeed } = settings;
  if (latencyMaxMs === null || latencyMaxMs <= latencyMs) return latencyMs;
  return createRandom(hash32(`${latencySeed}:${page}`)).int(latencyMs, latencyMaxMs);
}
