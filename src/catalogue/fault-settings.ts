import { z } from 'zod';
import { endpointNames, type EndpointName } from '../shared/endpoints.ts';

// Fault switches (spec §5.3), off by default: they let tests and demos meet the failures a
// real upstream has (latency, 500, 429, a cut-off body) on demand. Set at start-up from
// CATALOGUE_FAULTS ("latency=200,500=0.1,429=0.05,malformed=0.02,retry-after=3"), or at run
// time through PUT /__faults when fault control is enabled. `failNext` is the deterministic
// one that browser tests use: the next `count` matching lookups fail.

const rate = z.number().min(0).max(1);

const failNextSchema = z.object({
  count: z.number().int().min(1).max(1000),
  status: z.union([z.literal(500), z.literal(503), z.literal(429), z.literal('malformed')]),
  endpoint: z.enum(endpointNames as [EndpointName, ...EndpointName[]]).optional(),
  withContinuation: z.boolean().optional(),
});

export const faultSettingsSchema = z.object({
  latencyMs: z.number().int().min(0).max(60_000),
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
});

export type FaultSettings = z.infer<typeof faultSettingsSchema>;

export const NO_FAULTS: FaultSettings = {
  latencyMs: 0,
  error500Rate: 0,
  rate429Rate: 0,
  malformedRate: 0,
  retryAfterSeconds: 2,
  failNext: null,
  totalItemsSkew: 0,
};

const SPEC_KEYS: Record<string, keyof Omit<FaultSettings, 'failNext'>> = {
  'total-skew': 'totalItemsSkew',
  latency: 'latencyMs',
  '500': 'error500Rate',
  '429': 'rate429Rate',
  malformed: 'malformedRate',
  'retry-after': 'retryAfterSeconds',
};

/** Parses "latency=200,500=0.1,429=0.05,malformed=0.02"; throws with a readable message. */
export function parseFaultSpec(spec: string): Partial<FaultSettings> {
  const settings: Record<string, number> = {};
  for (const part of spec
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean)) {
    const [name, value] = part.split('=');
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
