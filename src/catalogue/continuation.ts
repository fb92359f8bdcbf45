import { createHmac, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import type { EndpointName } from '../shared/endpoints.ts';

// Continuations (spec §2.6) are opaque to clients but carry a keyset position, so that page
// 50 costs what page 1 does (no OFFSET scans). They are signed, so a tampered one, or one
// issued for another ID or another endpoint, is refused with 400 (spec §4.1 rule 2) instead of
// silently paging somewhere else. Standard base64, like the real service's, so clients meet
// `+`, `/` and `=` and must send them back byte for byte.

const VERSION = 1;
const MAC_BYTES = 16;

/** Where the next page starts: after this position in the endpoint's sort order. */
export type Keyset = Array<string | number>;

const payloadSchema = z.object({
  e: z.string(),
  i: z.string(),
  k: z
    .array(z.union([z.string(), z.number()]))
    .min(1)
    .max(4),
});

export type ContinuationCheck = { ok: true; keyset: Keyset } | { ok: false; reason: string };

export interface ContinuationCodec {
  encode(endpoint: EndpointName, id: string, keyset: Keyset): string;
  decode(token: string, endpoint: EndpointName, id: string): ContinuationCheck;
}

const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

export function createContinuationCodec(key: Buffer | string): ContinuationCodec {
  const mac = (body: Buffer) =>
    createHmac('sha256', key).update(body).digest().subarray(0, MAC_BYTES);

  return {
    encode(endpoint, id, keyset) {
      const body = Buffer.from(JSON.stringify({ e: endpoint, i: id, k: keyset }));
      return Buffer.concat([Buffer.from([VERSION]), mac(body), body]).toString('base64');
    },

    decode(token, endpoint, id) {
      if (token.length % 4 !== 0 || !BASE64.test(token))
        return { ok: false, reason: 'is not a continuation this service issued' };
      const raw = Buffer.from(token, 'base64');
      if (raw.length <= 1 + MAC_BYTES || raw[0] !== VERSION)
        return { ok: false, reason: 'is not a continuation this service issued' };
      const body = raw.subarray(1 + MAC_BYTES);
      if (!timingSafeEqual(raw.subarray(1, 1 + MAC_BYTES), mac(body))) {
        return { ok: false, reason: 'has been altered' };
      }
      let payload: z.infer<typeof payloadSchema>;
      try {
        payload = payloadSchema.parse(JSON.parse(body.toString('utf8')));
      } catch {
        return { ok: false, reason: 'is not a continuation this service issued' };
      }
      if (payload.e !== endpoint)
        return { ok: false, reason: `was issued by ${payload.e}, not ${endpoint}` };
      if (payload.i !== id) return { ok: false, reason: `was issued for ${payload.i}, not ${id}` };
      return { ok: true, keyset: payload.k };
    },
  };
}

/**
 * The place in its list a continuation points to, without its signature: the same for the same
 * page whatever key signed it (the fault switches key a page's latency by it). A token this
 * service never issued is its own place.
 */
export function continuationPlace(token: string): string {
  const raw = BASE64.test(token) ? Buffer.from(token, 'base64') : null;
  if (raw === null || raw.length <= 1 + MAC_BYTES || raw[0] !== VERSION) return token;
  return raw.subarray(1 + MAC_BYTES).toString('utf8');
}
