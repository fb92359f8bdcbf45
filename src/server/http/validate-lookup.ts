import { endpoints, LOOKUP_PARAMETERS, type EndpointName } from '../../shared/endpoints.ts';
import { continuationSchema } from '../../shared/ids.ts';
import type { ProblemCode } from '../../shared/problem.ts';
import type { Lookup } from '../upstream/lookup.ts';

// Input is checked before any quota is spent: the wrong ID shape for the endpoint, a
// malformed or oversized continuation, a repeated, unknown or missing parameter all get a 400
// and never reach the upstream.
//
// The query string is split by hand rather than with URLSearchParams, which would turn a `+`
// into a space: continuations are opaque, must go back byte for byte, and real ones contain
// `+` (spec §2.6), so `+` stays `+` and `%2B` becomes `+`. Neither an ID nor a continuation
// may hold a space, so no valid input is read differently either way.

export type LookupValidation =
  { ok: true; lookup: Lookup } | { ok: false; code: ProblemCode; detail: string };

const ALLOWED = new Set<string>(LOOKUP_PARAMETERS);

function decode(text: string): string | null {
  try {
    return decodeURIComponent(text);
  } catch {
    return null;
  }
}

/** Validates `rawQuery` (what follows `?` in the request target) for `endpoint`. */
export function validateLookup(endpoint: EndpointName, rawQuery: string): LookupValidation {
  const values = new Map<string, string[]>();
  for (const part of rawQuery.split('&')) {
    if (part === '') continue;
    const equals = part.indexOf('=');
    const name = decode(equals === -1 ? part : part.slice(0, equals));
    if (name === null || !ALLOWED.has(name)) {
      return {
        ok: false,
        code: 'unknown_parameter',
        detail: `Unknown query parameter; a lookup takes only ${LOOKUP_PARAMETERS.map((p) => `\`${p}\``).join(' and ')}.`,
      };
    }
    const value = decode(equals === -1 ? '' : part.slice(equals + 1));
    if (value === null) {
      return name === 'id'
        ? {
            ok: false,
            code: 'invalid_id',
            detail: 'The `id` parameter is not valid percent-encoding.',
          }
        : {
            ok: false,
            code: 'invalid_continuation',
            detail: 'The `continuation` parameter is not valid percent-encoding.',
          };
    }
    const list = values.get(name);
    if (list) list.push(value);
    else values.set(name, [value]);
  }

  for (const [name, list] of values) {
    if (list.length > 1) {
      return { ok: false, code: 'repeated_parameter', detail: `Give \`${name}\` at most once.` };
    }
  }

  const id = values.get('id')?.[0];
  if (id === undefined || id === '') {
    return { ok: false, code: 'missing_id', detail: 'The `id` parameter is required.' };
  }
  if (!endpoints[endpoint].idSchema.safeParse(id).success) {
    const kind =
      endpoint === 'playlist' ? 'a playlist ID' : 'a channel ID (UC followed by 22 characters)';
    return { ok: false, code: 'invalid_id', detail: `The \`id\` parameter is not ${kind}.` };
  }

  // An empty continuation means the first page, as at the catalogue: some clients send
  // `continuation=` for page 1.
  const raw = values.get('continuation')?.[0];
  const continuation = raw === '' ? undefined : raw;
  if (continuation !== undefined) {
    const checked = continuationSchema.safeParse(continuation);
    if (!checked.success) {
      return {
        ok: false,
        code: 'invalid_continuation',
        detail: `The \`continuation\` parameter is not acceptable: ${checked.error.issues[0]?.message ?? 'malformed'}.`,
      };
    }
  }
  return { ok: true, lookup: { endpoint, id, continuation } };
}
