import { z } from 'zod';
import { endpointNames, endpoints, type EndpointName } from '../../shared/endpoints.ts';
import { continuationSchema } from '../../shared/ids.ts';
import { readQuery, type QueryValue } from './query.ts';
import type { ProblemCode } from '../../shared/problem.ts';
import type { Lookup } from '../upstream/lookup.ts';

// Input is checked before any quota is spent: the wrong ID shape for the endpoint, a
// malformed or oversized continuation, a repeated, unknown or missing parameter all get a 400
// and never reach the upstream. The query is read as every route's is (query.ts), so `+` is
// itself; neither an ID nor a continuation may hold a space, so no valid input is read
// differently either way. The schemas below are also what the OpenAPI document lists.

const lookupQuery = (endpoint: EndpointName) =>
  z.object({ id: endpoints[endpoint].idSchema, continuation: continuationSchema.optional() });

/** Each lookup's query: the parameters it takes, and what each must be. */
export const LOOKUP_QUERY = Object.fromEntries(
  endpointNames.map((name) => [name, lookupQuery(name)]),
) as Record<EndpointName, ReturnType<typeof lookupQuery>>;

/** What a value the schema refuses is, by parameter; an absent `id` is `missing_id`. */
const REFUSED = {
  id: 'invalid_id',
  continuation: 'invalid_continuation',
} as const satisfies Record<keyof z.infer<ReturnType<typeof lookupQuery>>, ProblemCode>;

/** Every refusal of a lookup's input, the query reader's own included. */
export const LOOKUP_INPUT_PROBLEMS: readonly ProblemCode[] = [
  'missing_id',
  ...Object.values(REFUSED),
  'repeated_parameter',
  'unknown_parameter',
];

export type LookupValidation =
  { ok: true; lookup: Lookup } | { ok: false; code: ProblemCode; detail: string };

/** Validates a lookup's query, read by `readQuery` with the lookup's parameters. */
export function validateLookup(
  endpoint: EndpointName,
  values: ReadonlyMap<string, QueryValue>,
): LookupValidation {
  // An empty value is an absent one: some clients send `continuation=` for the first page, as
  // the catalogue allows. Not percent-encoding is null, which the schema refuses in its turn.
  const given = Object.fromEntries(
    [...values].filter(([, { value }]) => value !== '').map(([name, { value }]) => [name, value]),
  );
  const checked = LOOKUP_QUERY[endpoint].safeParse(given);
  if (checked.success) {
    const { id, continuation } = checked.data;
    return { ok: true, lookup: { endpoint, id, continuation } };
  }
  const issue = checked.error.issues[0];
  const name = issue?.path[0] as keyof typeof REFUSED;
  if (given[name] === undefined)
    return { ok: false, code: 'missing_id', detail: `The \`${name}\` parameter is required.` };
  const reason = given[name] === null ? 'not valid percent-encoding' : issue?.message;
  return {
    ok: false,
    code: REFUSED[name],
    detail: `The \`${name}\` parameter is not acceptable: ${reason}.`,
  };
}

/** A lookup's raw query, read and validated: for routes that have nothing else to read. */
export function lookupFromQuery(endpoint: EndpointName, rawQuery: string): LookupValidation {
  const read = readQuery(rawQuery, Object.keys(LOOKUP_QUERY[endpoint].shape));
  return read.ok ? validateLookup(endpoint, read.values) : read;
}
