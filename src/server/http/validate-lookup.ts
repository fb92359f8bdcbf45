import { endpoints, LOOKUP_PARAMETERS, type EndpointName } from '../../shared/endpoints.ts';
import { continuationSchema } from '../../shared/ids.ts';
import { readQuery, type QueryValue } from './query.ts';
import type { ProblemCode } from '../../shared/problem.ts';
import type { Lookup } from '../upstream/lookup.ts';

// Input is checked before any quota is spent: the wrong ID shape for the endpoint, a
// malformed or oversized continuation, a repeated, unknown or missing parameter all get a 400
// and never reach the upstream. The query is read as every route's is (query.ts), so `+` is
// itself; neither an ID nor a continuation may hold a space, so no valid input is read
// differently either way.

export type LookupValidation =
  { ok: true; lookup: Lookup } | { ok: false; code: ProblemCode; detail: string };

/**
 * Validates a lookup's query, read by `readQuery` with the lookup's parameters: a missing or
 * malformed ID or continuation is refused here, before any quota is spent.
 */
export function validateLookup(
  endpoint: EndpointName,
  values: ReadonlyMap<string, QueryValue>,
): LookupValidation {
  const idValue = values.get('id');
  if (idValue?.value === null) {
    return {
      ok: false,
      code: 'invalid_id',
      detail: 'The `id` parameter is not valid percent-encoding.',
    };
  }
  const id = idValue?.value;
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
  const given = values.get('continuation');
  if (given?.value === null) {
    return {
      ok: false,
      code: 'invalid_continuation',
      detail: 'The `continuation` parameter is not valid percent-encoding.',
    };
  }
  const continuation = given?.value === '' ? undefined : given?.value;
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

/** A lookup's raw query, read and validated: for routes that have nothing else to read. */
export function lookupFromQuery(endpoint: EndpointName, rawQuery: string): LookupValidation {
  const read = readQuery(rawQuery, LOOKUP_PARAMETERS);
  return read.ok ? validateLookup(endpoint, read.values) : read;
}
