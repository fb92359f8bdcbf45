import { decodeOrNull } from '../../shared/percent-decoding.ts';

// Query strings, read one way for every route. The string is split by hand rather than with
// URLSearchParams, which would turn a `+` into a space: continuations are opaque, must reach
// the upstream byte for byte, and real ones contain `+` (spec §2.6), so `+` stays `+` and
// `%2B` becomes `+`. Only the parameters a route declares are accepted, each at most once;
// what a value must look like is the route's to say.

export interface QueryValue {
  /** As sent, still percent-encoded. */
  raw: string;
  /** Percent-decoded; null when it is not valid percent-encoding. */
  value: string | null;
}

export type QueryRead =
  | { ok: true; values: Map<string, QueryValue> }
  | { ok: false; code: 'unknown_parameter' | 'repeated_parameter'; detail: string };

/**
 * What follows `?` in a request target, up to a `#`: no client sends a fragment, and one that
 * does must not have it read as parameters (`?continuation=#&id=…` has no `id`).
 */
export function rawQueryOf(url: string): string {
  const mark = url.indexOf('?');
  if (mark === -1) return '';
  const hash = url.indexOf('#', mark);
  return url.slice(mark + 1, hash === -1 ? undefined : hash);
}

const listed = (names: readonly string[]) => names.map((name) => `\`${name}\``).join(' and ');

/** Reads `raw` for a route that takes the parameters `allowed`. */
export function readQuery(raw: string, allowed: readonly string[]): QueryRead {
  const values = new Map<string, QueryValue>();
  for (const part of raw.split('&')) {
    if (part === '') continue;
    const equals = part.indexOf('=');
    const name = decodeOrNull(equals === -1 ? part : part.slice(0, equals));
    if (name === null || !allowed.includes(name)) {
      return {
        ok: false,
        code: 'unknown_parameter',
        detail:
          allowed.length === 0
            ? 'This takes no query parameters.'
            : `Unknown query parameter; this takes only ${listed(allowed)}.`,
      };
    }
    if (values.has(name))
      return { ok: false, code: 'repeated_parameter', detail: `Give \`${name}\` at most once.` };
    const value = equals === -1 ? '' : part.slice(equals + 1);
    values.set(name, { raw: value, value: decodeOrNull(value) });
  }
  return { ok: true, values };
}
