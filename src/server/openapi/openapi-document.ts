import packageJson from '../../../package.json' with { type: 'json' };
import { PROBLEM_CODES, statusOf, type ProblemCode } from '../../shared/problem-codes.ts';
import { PROBLEM_CONTENT_TYPE } from '../../shared/problem.ts';
import { OPERATION_TAGS, ROUTER_PROBLEMS, type Operation } from '../http/operation.ts';
import { API_OPERATIONS } from '../routes/api-operations.ts';
import { componentSchemas, headerRef, parameterObjects, schemaRef } from './component-schemas.ts';
import { OPERATION_PROSE } from './operation-prose.ts';

// The explorer's HTTP API as one OpenAPI 3.1 document, for scripts and tools. Every path, its
// parameters, its answers and the problem codes of each come from the operation table the
// server routes by (routes/api-operations.ts), each code's status and meaning from the shared
// table of codes (shared/problem-codes.ts), every body schema from the contract's zod schemas
// (component-schemas.ts). Built once: nothing in it depends on the request.

export const OPENAPI_VERSION = '3.1.1';

type Json = Record<string, unknown>;

const HEADERS = {
  'Retry-After': {
    description: 'Seconds to wait before asking again; the problem’s `retryAfter` says the same.',
    schema: { type: 'integer', minimum: 0 },
  },
  ETag: {
    description:
      'Strong validator of the body; each content coding has its own. Send it back in If-None-Match.',
    schema: { type: 'string' },
  },
  'X-Cache': {
    description:
      'Where the page came from: `hit` (the explorer’s cache), `miss` (the catalogue, just now), `merged` (an identical request already on its way), `stale` (an older copy standing in for a failed or slow catalogue; `Cache-Control: no-cache` then).',
    schema: { type: 'string', enum: ['hit', 'miss', 'stale', 'merged'] },
  },
  'Content-Disposition': {
    description:
      'An `attachment` named after the list and the format, as `filename` (ASCII) and `filename*` (UTF-8): a browser saves the export.',
    schema: { type: 'string' },
  },
} as const;

/** Headers some problems come with, beyond Retry-After. */
const PROBLEM_HEADERS: Partial<Record<ProblemCode, Record<string, Json>>> = {
  method_not_allowed: {
    Allow: {
      description:
        'The methods this path answers: `GET, HEAD`, and `POST` or `DELETE` on the jobs.',
      schema: { type: 'string' },
    },
  },
  unauthorized: {
    'WWW-Authenticate': { description: '`Bearer realm="metrics"`', schema: { type: 'string' } },
  },
};

/** One answer for the codes of one status: what each means, and when to ask again. */
function problemAnswer(codes: ProblemCode[], members: Operation<unknown>['problemMembers']): Json {
  const description = codes
    .map((code) => `- \`${code}\`: ${PROBLEM_CODES[code].meaning}`)
    .join('\n');
  const retry = codes.map((code) => (PROBLEM_CODES[code] as { retryAfter?: string }).retryAfter);
  const headers: Record<string, Json> = Object.assign(
    {},
    ...codes.map((code) => PROBLEM_HEADERS[code] ?? {}),
  );
  if (retry.every((when) => when === 'always')) headers['Retry-After'] = headerRef('Retry-After');
  else if (retry.some((when) => when !== undefined))
    headers['Retry-After'] = {
      ...HEADERS['Retry-After'],
      description: `${HEADERS['Retry-After'].description} Present when the explorer holds the request back after a recent failure, or asks it to wait.`,
    };
  const extra = Object.assign({}, ...codes.map((code) => members?.[code] ?? {})) as Json;
  const schema =
    Object.keys(extra).length === 0
      ? schemaRef('Problem')
      : { allOf: [schemaRef('Problem'), { type: 'object', properties: extra }] };
  return {
    description,
    ...(Object.keys(headers).length === 0 ? {} : { headers }),
    content: { [PROBLEM_CONTENT_TYPE]: { schema } },
    'x-problem-codes': codes,
  };
}

/** An operation's problems by status, the router's own included. */
function problemAnswers(operation: Operation<unknown>): Record<string, Json> {
  const byStatus = new Map<number, ProblemCode[]>();
  for (const code of [...operation.problems, ...ROUTER_PROBLEMS]) {
    const status = statusOf(code);
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  return Object.fromEntries(
    [...byStatus]
      .sort(([a], [b]) => a - b)
      .map(([status, codes]) => [String(status), problemAnswer(codes, operation.problemMembers)]),
  );
}

function operationObject(operation: Operation<unknown>): Json {
  const description = OPERATION_PROSE[operation.id];
  const parameters = (['path', 'query', 'header'] as const).flatMap((where) => {
    const set = operation.input[where];
    return set === undefined ? [] : parameterObjects(where, set);
  });
  return {
    operationId: operation.id,
    tags: [operation.tag],
    summary: operation.summary,
    ...(description === undefined ? {} : { description }),
    security: operation.security === 'public' ? [] : [{ metricsToken: [] }],
    ...(parameters.length === 0 ? {} : { parameters }),
    ...(operation.requestBody ? { requestBody: { required: true, ...operation.requestBody } } : {}),
    responses: {
      ...operation.answers,
      ...problemAnswers(operation),
      default: { $ref: '#/components/responses/OtherProblem' },
    },
  };
}

const DESCRIPTION = [
  'Browse a video platform’s playlists and channels through the explorer: the three page-by-page lookups of the catalogue, answered from the explorer’s cache and within its hourly quota, and answers about whole lists (totals, exports, a stream of the walk).',
  'Every route reads with GET (HEAD answers the same without a body), but for the jobs whole-list work runs as, which are made with POST and cancelled with DELETE; any other method is a 405 `method_not_allowed` with an Allow header. Every error is an RFC 9457 problem document (`application/problem+json`) with a stable `code`, listed with each answer; an unknown path under /api/ is a 404 `not_found` problem, never HTML.',
].join('\n\n');

function buildDocument(origin: string | undefined): Json {
  const paths: Record<string, Json> = {};
  for (const operation of API_OPERATIONS)
    paths[operation.path] = {
      ...paths[operation.path],
      [operation.method]: operationObject(operation),
    };
  return {
    openapi: OPENAPI_VERSION,
    // Schemas are zod's draft 2020-12 output, plain JSON Schema with no OpenAPI additions.
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    info: {
      title: 'Catalogue Explorer API',
      version: packageJson.version,
      description: DESCRIPTION,
      contact: { name: 'The Catalogue Explorer team' },
      // Not open source: an SPDX reference of our own rather than a licence's URL.
      license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
    },
    // A relative URL resolves against where the document was fetched from (OpenAPI 3.1 §4.8.5),
    // so the document is right behind any proxy without trusting a Host header.
    servers: [{ url: origin ?? '/' }],
    // Public unless an operation says otherwise (only /metrics does).
    security: [],
    tags: Object.entries(OPERATION_TAGS).map(([name, description]) => ({ name, description })),
    paths,
    components: {
      schemas: componentSchemas(),
      headers: HEADERS,
      responses: {
        OtherProblem: {
          description:
            'Any other refusal or failure: what the HTTP edge says before any route runs (a malformed request, headers too large, too slow), never a stack trace.',
          content: { [PROBLEM_CONTENT_TYPE]: { schema: schemaRef('Problem') } },
        },
      },
      securitySchemes: {
        metricsToken: {
          type: 'http',
          scheme: 'bearer',
          description: 'The token the operator configured for /metrics.',
        },
      },
    },
    'x-problem-codes': Object.fromEntries(
      Object.entries(PROBLEM_CODES).map(([code, { meaning }]) => [code, meaning]),
    ),
  };
}

const built = new Map<string, Json>();

/**
 * The document, built on first use and kept. `origin` (an absolute origin such as the
 * configured public URL) makes `servers` absolute, for a copy saved outside the explorer;
 * by default the one server is relative, as the explorer serves it. Each origin's copy is kept,
 * so pass configured origins only, never one read from a request.
 */
export function openApiDocument(origin?: string): Json {
  const key = origin ?? '';
  let document = built.get(key);
  if (document === undefined) {
    document = buildDocument(origin);
    built.set(key, document);
  }
  return document;
}
