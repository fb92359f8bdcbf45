import packageJson from '../../../package.json' with { type: 'json' };
import { endpointNames, endpoints, type EndpointName } from '../../shared/endpoints.ts';
import { DEMO_ENTRIES_PATH } from '../../shared/explorer-api.ts';
import { CONTINUATION_MAX_LENGTH } from '../../shared/id-patterns.ts';
import { PROBLEM_CONTENT_TYPE, type ProblemCode } from '../../shared/problem.ts';
import {
  EXPORT_COLUMNS,
  EXPORT_TYPES,
  exportFormats,
  ITEM_URL_FIELD,
  WALKS_PER_CLIENT,
  WHOLE_LIST_PATHS,
} from '../../shared/whole-list.ts';
import {
  componentSchemas,
  rangeParameterSchemas,
  schemaRef,
  type SchemaName,
} from './component-schemas.ts';

// The explorer's HTTP API as one OpenAPI 3.1 document, for scripts and tools: every body
// schema is generated from the contract in src/shared (component-schemas.ts), every path comes
// from the contract's own tables (endpoints.ts, whole-list.ts), and what each route answers
// when things go wrong follows the server's mapping of failures (upstream/failure.ts,
// page-source.ts). Built once: nothing in it depends on the request.

export const OPENAPI_VERSION = '3.1.1';

/** Component names of the schemas by list kind, in the contract's order. */
const PAGE_SCHEMA: Record<EndpointName, SchemaName> = {
  playlist: 'PlaylistPage',
  'channel-videos': 'ChannelVideosPage',
  'channel-playlists': 'ChannelPlaylistsPage',
};
const EXPORTED_ITEM_SCHEMA: Record<EndpointName, SchemaName> = {
  playlist: 'ExportedPlaylistItem',
  'channel-videos': 'ExportedChannelVideo',
  'channel-playlists': 'ExportedChannelPlaylist',
};
const ID_SCHEMA: Record<EndpointName, SchemaName> = {
  playlist: 'PlaylistId',
  'channel-videos': 'ChannelId',
  'channel-playlists': 'ChannelId',
};

/**
 * What each problem code means, for the reference page and for readers of the document. A
 * record over every code, so a code added to the contract does not compile until it is
 * explained here.
 */
export const PROBLEM_CODE_MEANINGS: Record<ProblemCode, string> = {
  invalid_id:
    'The ID does not have the shape this list takes (a playlist ID, or UC and 22 characters for a channel).',
  missing_id: 'The `id` parameter is missing or empty.',
  invalid_continuation: 'The continuation is malformed, too long, or not one this list handed out.',
  repeated_parameter: 'A query parameter was given more than once.',
  unknown_parameter: 'A query parameter this route does not take.',
  invalid_request: 'The request asks for something this route cannot answer.',
  invalid_range:
    'A summary’s range is not two whole numbers from 1 with `from` no later than `to`.',
  bad_request: 'The bytes received were not a valid HTTP request.',
  headers_too_large: 'The request’s header section is too large.',
  content_too_large: 'The request carried a body; the explorer only reads.',
  request_timeout: 'The request did not arrive in time.',
  expectation_failed: 'The request sent an Expect header the explorer does not meet.',
  playlist_not_found: 'The catalogue has no playlist with this ID.',
  channel_not_found: 'The catalogue has no channel with this ID.',
  not_found: 'Nothing answers at this path, or the catalogue has no such item.',
  method_not_allowed: 'Only GET and HEAD are supported.',
  unauthorized: 'The route needs a bearer token that was not given.',
  rate_limited: 'This client asked for too many new pages in a short time.',
  quota_exhausted: 'The hour’s catalogue quota is spent, or cannot cover this walk.',
  too_many_walks: `This client already reads ${WALKS_PER_CLIENT} whole lists at once.`,
  upstream_credentials_rejected:
    'The catalogue rejected the explorer’s credentials; the operator must fix them.',
  upstream_error: 'The catalogue failed to answer.',
  upstream_bad_response: 'The catalogue sent an answer the explorer cannot use.',
  upstream_timeout: 'The catalogue did not answer in time.',
  upstream_unavailable:
    'The catalogue cannot be reached, or has been failing and is being given a moment.',
  upstream_rate_limited: 'The catalogue asked the explorer to slow down.',
  injected_fault: 'A fault switched on for testing (the embedded catalogue only).',
  internal_error: 'The explorer failed to answer; nothing about the inside is said.',
};

// ---------------------------------------------------------------------------------------------
// Building blocks

type Json = Record<string, unknown>;

const headerRef = (name: string) => ({ $ref: `#/components/headers/${name}` });

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

/** A problem answer: its codes go in the description and, for tools, in `x-problem-codes`. */
function problem(
  description: string,
  codes: readonly ProblemCode[],
  retryAfter: 'always' | 'sometimes' | 'never' = 'never',
): Json {
  const headers =
    retryAfter === 'never'
      ? undefined
      : {
          'Retry-After':
            retryAfter === 'always'
              ? headerRef('Retry-After')
              : {
                  ...HEADERS['Retry-After'],
                  description: `${HEADERS['Retry-After'].description} Present when the explorer holds the request back after a recent failure.`,
                },
        };
  return {
    description: `${description} Codes: ${codes.map((c) => `\`${c}\``).join(', ')}.`,
    ...(headers === undefined ? {} : { headers }),
    content: { [PROBLEM_CONTENT_TYPE]: { schema: schemaRef('Problem') } },
    'x-problem-codes': codes,
  };
}

/** Any answer an operation does not list: the same problem document, never a stack trace. */
const DEFAULT_RESPONSE = { $ref: '#/components/responses/OtherProblem' };

const json = (schema: Json) => ({ 'application/json': { schema } });

/** The three failures of a call to the catalogue, as upstream/failure.ts maps them. */
const UPSTREAM_FAILURES = {
  '502': problem(
    'The catalogue failed, refused the explorer’s credentials, or sent an unusable answer.',
    ['upstream_error', 'upstream_credentials_rejected', 'upstream_bad_response'],
    'sometimes',
  ),
  '503': problem(
    'The catalogue cannot be reached, or has been failing and is given a moment before the next try.',
    ['upstream_unavailable'],
    'always',
  ),
  '504': problem('The catalogue did not answer in time.', ['upstream_timeout'], 'sometimes'),
};

// ---------------------------------------------------------------------------------------------
// The three lookups (spec §4)

const LOOKUP_SUMMARY: Record<EndpointName, string> = {
  playlist: 'One page of a playlist’s videos',
  'channel-videos': 'One page of a channel’s videos',
  'channel-playlists': 'One page of a channel’s playlists',
};

function lookupOperation(name: EndpointName): Json {
  const isPlaylist = name === 'playlist';
  const notFound: ProblemCode = isPlaylist ? 'playlist_not_found' : 'channel_not_found';
  return {
    operationId: `lookup${name.replace(/(^|-)(\w)/g, (_, _dash, c: string) => c.toUpperCase())}`,
    tags: ['Lookups'],
    summary: LOOKUP_SUMMARY[name],
    description: [
      `Answers one page at a time: follow \`continuation\` until it is null.${isPlaylist ? ' The first page (no continuation) also carries the playlist’s `info`, with its stated length.' : ''}`,
      'The input is checked before any catalogue quota is spent; only `id` and `continuation` are accepted, each at most once. Pages are cached: a repeated request costs no quota, and identical requests in flight share one catalogue call.',
      'When the catalogue fails and the explorer still holds an older copy of the page, that copy is answered with `X-Cache: stale` rather than the failure.',
    ].join('\n\n'),
    parameters: [
      {
        name: 'id',
        in: 'query',
        required: true,
        description: isPlaylist ? 'The playlist’s ID.' : 'The channel’s ID.',
        schema: schemaRef(ID_SCHEMA[name]),
      },
      {
        name: 'continuation',
        in: 'query',
        required: false,
        description: `The previous page’s \`continuation\`, byte for byte (at most ${CONTINUATION_MAX_LENGTH} characters). Percent-encode it: a \`+\` is read as itself, not as a space. Absent or empty: the first page.`,
        schema: schemaRef('Continuation'),
      },
      {
        name: 'If-None-Match',
        in: 'header',
        required: false,
        description: 'An ETag this client holds: 304 when the page is unchanged.',
        schema: { type: 'string' },
      },
    ],
    responses: {
      '200': {
        description: 'The page.',
        headers: {
          ETag: headerRef('ETag'),
          'X-Cache': headerRef('X-Cache'),
        },
        content: json(schemaRef(PAGE_SCHEMA[name])),
      },
      '304': {
        description: 'The page named by If-None-Match is current; no body.',
        headers: { ETag: headerRef('ETag') },
      },
      '400': problem('The query is not acceptable (or the catalogue refused it).', [
        'missing_id',
        'invalid_id',
        'invalid_continuation',
        'repeated_parameter',
        'unknown_parameter',
      ]),
      '404': problem(
        isPlaylist ? 'The catalogue has no such playlist.' : 'The catalogue has no such channel.',
        [notFound, 'not_found'],
      ),
      '429': problem(
        'This client asked for too many new pages, the hour’s catalogue quota is spent, or the catalogue asked the explorer to slow down.',
        ['rate_limited', 'quota_exhausted', 'upstream_rate_limited'],
        'always',
      ),
      ...UPSTREAM_FAILURES,
      default: DEFAULT_RESPONSE,
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Whole lists (routes/whole-list.ts)

const LIST_PARAMETER = {
  name: 'list',
  in: 'path',
  required: true,
  description:
    'Which list: a playlist’s videos, a channel’s videos or a channel’s playlists. Any other is a 404.',
  schema: schemaRef('ListKind'),
};
const LIST_ID_PARAMETER = {
  name: 'id',
  in: 'path',
  required: true,
  description: 'The playlist’s ID for `playlist`, the channel’s ID for the other two lists.',
  schema: { anyOf: [schemaRef('PlaylistId'), schemaRef('ChannelId')] },
};

const FIRST_PAGE =
  'The list’s first page is read before anything else (from the explorer’s cache when it holds it): when it cannot be had, the answer is that page’s problem, as the lookup would give it.';

const WALK_LIMITS = `A walk spends catalogue quota page by page; pages the explorer’s cache holds cost nothing. It does not start when the hour’s remaining quota cannot cover a playlist (whose length its first page states; the problem then carries the walk’s \`cost\`), nor when this client already reads ${WALKS_PER_CLIENT} whole lists: both are a 429 with Retry-After, sent before any byte of a body.`;

const CUT_OFF =
  'Once the first byte has gone out the status cannot change. A body that cannot be finished is cut off: the chunked body ends without its terminating chunk, so every client sees a transfer error (curl exits with 18, fetch rejects while the body is read), never a clean end';

/** 429 for a walk refused up front; a refusal for the quota carries what the walk would cost. */
const WALK_REFUSED = {
  ...problem(
    `The walk cannot start now: the hour’s quota cannot cover it (\`quota_exhausted\`, with the walk’s \`cost\`), this client already reads ${WALKS_PER_CLIENT} lists (\`too_many_walks\`), or the first page could not be had for the lookups’ reasons.`,
    ['quota_exhausted', 'too_many_walks', 'rate_limited', 'upstream_rate_limited'],
    'always',
  ),
  content: {
    [PROBLEM_CONTENT_TYPE]: {
      schema: {
        allOf: [
          schemaRef('Problem'),
          { type: 'object', properties: { cost: schemaRef('WalkCost') } },
        ],
      },
    },
  },
};

function wholeListErrors(options: {
  walks: boolean;
  badRequest: readonly ProblemCode[];
  notFound?: string;
}): Json {
  return {
    '400': problem(
      'The ID does not have the shape the list takes, or the query is not acceptable.',
      options.badRequest,
    ),
    '404': problem(
      `The path names no kind of list${options.notFound ?? ''}, or the catalogue has no such playlist or channel.`,
      ['not_found', 'playlist_not_found', 'channel_not_found'],
    ),
    '429': options.walks
      ? WALK_REFUSED
      : problem(
          'The first page could not be read now: this client’s allowance or the hour’s quota is spent, or the catalogue asked the explorer to slow down.',
          ['rate_limited', 'quota_exhausted', 'upstream_rate_limited'],
          'always',
        ),
    ...UPSTREAM_FAILURES,
    default: DEFAULT_RESPONSE,
  };
}

const NO_STORE_HEADER = {
  'Cache-Control': {
    description: 'Always `no-store`: the answer reflects the list and the quota at this moment.',
    schema: { type: 'string', const: 'no-store' },
  },
};

function csvColumnsText(): string {
  return endpointNames
    .map(
      (list) =>
        `- \`${list}\`: ${[...EXPORT_COLUMNS[list].map((c) => c.name), ITEM_URL_FIELD].map((n) => `\`${n}\``).join(', ')}`,
    )
    .join('\n');
}

function wholeListPaths(): Record<string, Json> {
  const range = rangeParameterSchemas();
  const listPath = (prefix: string) => `${prefix}/{list}/{id}`;
  return {
    [listPath(WHOLE_LIST_PATHS.summary)]: {
      get: {
        operationId: 'listSummary',
        tags: ['Whole lists'],
        summary: 'Totals over a whole list, or a range of it',
        description: [
          'Reads the list to its end (or to the end of the range) and adds up its measure: durations in seconds for videos, video counts for a channel’s playlists. Items with no usable value (live streams, missing durations) are counted apart.',
          FIRST_PAGE,
          WALK_LIMITS,
          'A walk that stops part-way (the quota ran out, the catalogue failed) still answers 200, with `complete: false` and `stoppedBy` saying why.',
        ].join('\n\n'),
        parameters: [
          LIST_PARAMETER,
          LIST_ID_PARAMETER,
          {
            name: 'from',
            in: 'query',
            required: false,
            description: 'First position of the range, 1-based and inclusive.',
            schema: range.from,
          },
          {
            name: 'to',
            in: 'query',
            required: false,
            description:
              'Last position of the range, inclusive, not before `from`. Past the list’s end it is cut to the end (`range.clipped`).',
            schema: range.to,
          },
        ],
        responses: {
          '200': {
            description: 'The summary.',
            headers: NO_STORE_HEADER,
            content: json(schemaRef('ListSummary')),
          },
          ...wholeListErrors({
            walks: true,
            badRequest: ['invalid_id', 'invalid_range', 'unknown_parameter'],
          }),
        },
      },
    },
    [listPath(WHOLE_LIST_PATHS.cost)]: {
      get: {
        operationId: 'walkCost',
        tags: ['Whole lists'],
        summary: 'What reading a whole list would cost, before it starts',
        description: [
          'How many pages the list has, how many at the start of its chain the cache already holds, how many catalogue calls a walk would spend and whether the hour’s remaining quota covers them (if not, `retryAfter` says when it would). A channel’s lists state no length, so their figures are null and their walk goes on while the quota lasts.',
          FIRST_PAGE,
        ].join('\n\n'),
        parameters: [LIST_PARAMETER, LIST_ID_PARAMETER],
        responses: {
          '200': {
            description: 'The cost.',
            headers: NO_STORE_HEADER,
            content: json(schemaRef('WalkCost')),
          },
          ...wholeListErrors({ walks: false, badRequest: ['invalid_id'] }),
        },
      },
    },
    [listPath(WHOLE_LIST_PATHS.walk)]: {
      get: {
        operationId: 'walkList',
        tags: ['Whole lists'],
        summary: 'The whole list, page by page, as a stream of events',
        description: [
          'Newline-delimited JSON, one `WalkEvent` a line: first `start` (the walk’s cost), then one `page` per page read, whose `page` is the lookup’s page for this list (`PlaylistPage`, `ChannelVideosPage` or `ChannelPlaylistsPage`) and whose `param` is the continuation it was asked for with (null for the first), then `end`. The stream is read as fast as the client takes it.',
          'A walk that stops before the list does (the quota ran out, the catalogue failed) still ends with an `end` line, with `complete: false` and `stoppedBy` saying why.',
          FIRST_PAGE,
          WALK_LIMITS,
          `${CUT_OFF}. That happens only when the explorer itself fails in the middle: the stream then has no \`end\` line, and a stream without one is incomplete whatever its pages say.`,
        ].join('\n\n'),
        parameters: [LIST_PARAMETER, LIST_ID_PARAMETER],
        responses: {
          '200': {
            description: 'The walk, one event a line.',
            headers: NO_STORE_HEADER,
            content: { 'application/x-ndjson': { schema: schemaRef('WalkEvent') } },
          },
          ...wholeListErrors({ walks: true, badRequest: ['invalid_id'] }),
        },
      },
    },
    [`${WHOLE_LIST_PATHS.export}/{list}/{id}.{format}`]: {
      get: {
        operationId: 'exportList',
        tags: ['Whole lists'],
        summary: 'The whole list as a file: CSV, JSON or plain text',
        description: [
          [
            'The last segment is the ID and the format’s extension. The answer is an attachment named after the list (a playlist’s title, a channel’s name), in the format its extension names:',
            `- \`csv\` (${EXPORT_TYPES.csv}): RFC 4180 with a header row, one column per field of the item and the item’s URL last. Thumbnails are their JSON array; an empty field is null.`,
            `- \`json\` (${EXPORT_TYPES.json}): one array of the items as the lookups give them, each with its \`${ITEM_URL_FIELD}\`.`,
            `- \`txt\` (${EXPORT_TYPES.txt}): one URL a line (a video’s watch page, a playlist’s page).`,
          ].join('\n'),
          `The CSV columns, by list (also in the CSV body’s \`x-columns\`):\n${csvColumnsText()}`,
          'An export takes no query parameters.',
          FIRST_PAGE,
          WALK_LIMITS,
          `A file has nowhere to say that it is short, so an export that cannot be finished (the quota ran out, the catalogue failed, the explorer failed) is never ended cleanly. ${CUT_OFF}: the JSON array lacks its closing bracket, the CSV or text file stops short.`,
        ].join('\n\n'),
        parameters: [
          LIST_PARAMETER,
          LIST_ID_PARAMETER,
          {
            name: 'format',
            in: 'path',
            required: true,
            description: 'The file’s extension, which chooses its format; any other is a 404.',
            schema: { type: 'string', enum: [...exportFormats] },
          },
        ],
        responses: {
          '200': {
            description: 'The export, as an attachment.',
            headers: {
              'Content-Disposition': headerRef('Content-Disposition'),
              ...NO_STORE_HEADER,
            },
            content: {
              [EXPORT_TYPES.csv]: {
                schema: { type: 'string' },
                'x-columns': Object.fromEntries(
                  endpointNames.map((list) => [
                    list,
                    [...EXPORT_COLUMNS[list].map((c) => c.name), ITEM_URL_FIELD],
                  ]),
                ),
              },
              [EXPORT_TYPES.json]: {
                schema: {
                  description: 'The items of the list named by `list`.',
                  anyOf: endpointNames.map((list) => ({
                    type: 'array',
                    items: schemaRef(EXPORTED_ITEM_SCHEMA[list]),
                  })),
                },
              },
              [EXPORT_TYPES.txt]: { schema: { type: 'string' } },
            },
          },
          ...wholeListErrors({
            walks: true,
            badRequest: ['invalid_id', 'unknown_parameter'],
            notFound: ' or no export format',
          }),
        },
      },
    },
  };
}

// ---------------------------------------------------------------------------------------------
// The rest: the demo's entries, probes, metrics, this document

const NOT_STORED_NOTE = 'Never cached (`Cache-Control: no-store`).';

function otherPaths(): Record<string, Json> {
  return {
    [DEMO_ENTRIES_PATH]: {
      get: {
        operationId: 'demoEntries',
        tags: ['Explorer'],
        summary: 'What the home page offers to open',
        description:
          'The demo catalogue’s headline playlists and channels. Only when the upstream is the embedded demo catalogue; a real upstream has no such list.',
        responses: {
          '200': { description: 'The entries.', content: json(schemaRef('DemoEntries')) },
          '404': problem('The explorer is not running the demo catalogue.', ['not_found']),
          default: DEFAULT_RESPONSE,
        },
      },
    },
    '/healthz': {
      get: {
        operationId: 'healthz',
        tags: ['Operations'],
        summary: 'Liveness: the process answers',
        description: `Always \`{"status":"ok"}\`. ${NOT_STORED_NOTE}`,
        responses: {
          '200': { description: 'Alive.', content: json(schemaRef('Health')) },
        },
      },
    },
    '/readyz': {
      get: {
        operationId: 'readyz',
        tags: ['Operations'],
        summary: 'Readiness: whether this explorer should get traffic',
        description: `\`ready\`, or 503 with \`stopping\` once shutdown began, or \`degraded\` (reason \`upstream_credentials_rejected\`) while the catalogue refuses the explorer’s credentials and every lookup would fail. ${NOT_STORED_NOTE}`,
        responses: {
          '200': { description: 'Ready.', content: json(schemaRef('Health')) },
          '503': { description: 'Stopping, or degraded.', content: json(schemaRef('Health')) },
        },
      },
    },
    '/metrics': {
      get: {
        operationId: 'metrics',
        tags: ['Operations'],
        summary: 'Prometheus metrics, for bearers of the configured token',
        description:
          'The text exposition format. This route exists only when the operator configured a token (otherwise it is a 404 like any unknown path); a separate metrics port, when configured, serves the same text without one.',
        security: [{ metricsToken: [] }],
        responses: {
          '200': {
            description: 'The metrics.',
            content: { 'text/plain': { schema: { type: 'string' } } },
          },
          '401': {
            ...problem('No bearer token, or the wrong one.', ['unauthorized']),
            headers: {
              'WWW-Authenticate': {
                description: '`Bearer realm="metrics"`',
                schema: { type: 'string' },
              },
            },
          },
          default: DEFAULT_RESPONSE,
        },
      },
    },
    [WHOLE_LIST_PATHS.openapi]: {
      get: {
        operationId: 'openApiDocument',
        tags: ['Documentation'],
        summary: 'This document',
        description:
          'The explorer’s API as OpenAPI 3.1, its schemas generated from the same code that checks the answers.',
        responses: {
          '200': {
            description: 'The document.',
            headers: { ETag: headerRef('ETag') },
            content: json({ type: 'object' }),
          },
          '304': { description: 'The copy named by If-None-Match is current.' },
        },
      },
    },
    [WHOLE_LIST_PATHS.reference]: {
      get: {
        operationId: 'apiReference',
        tags: ['Documentation'],
        summary: 'This document as a page to read',
        responses: {
          '200': {
            description: 'An HTML page listing every operation.',
            headers: { ETag: headerRef('ETag') },
            content: { 'text/html': { schema: { type: 'string' } } },
          },
          '304': { description: 'The copy named by If-None-Match is current.' },
        },
      },
    },
  };
}

// ---------------------------------------------------------------------------------------------
// The document

const DESCRIPTION = [
  'Browse a video platform’s playlists and channels through the explorer: the three page-by-page lookups of the catalogue, answered from the explorer’s cache and within its hourly quota, and answers about whole lists (totals, exports, a stream of the walk).',
  'Every route is GET (HEAD answers the same without a body); any other method is a 405 `method_not_allowed` with an Allow header. Every error is an RFC 9457 problem document (`application/problem+json`) with a stable `code`, listed with each answer; an unknown path under /api/ is a 404 `not_found` problem, never HTML.',
].join('\n\n');

function buildDocument(origin: string | undefined): Json {
  const lookups = Object.fromEntries(
    endpointNames.map((name) => [endpoints[name].path, { get: lookupOperation(name) }]),
  );
  return {
    openapi: OPENAPI_VERSION,
    // Schemas are zod's draft 2020-12 output, plain JSON Schema with no OpenAPI additions.
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    info: {
      title: 'Catalogue Explorer API',
      version: packageJson.version,
      description: DESCRIPTION,
    },
    // A relative URL resolves against where the document was fetched from (OpenAPI 3.1 §4.8.5),
    // so the document is right behind any proxy without trusting a Host header.
    servers: [{ url: origin ?? '/' }],
    tags: [
      { name: 'Lookups', description: 'One page of a list at a time.' },
      {
        name: 'Whole lists',
        description:
          'Answers that read a list to its end, through the same cache and quota as the lookups.',
      },
      { name: 'Explorer', description: 'What the app itself needs.' },
      { name: 'Operations', description: 'For orchestrators and scrapers.' },
      { name: 'Documentation', description: 'This document, for tools and for people.' },
    ],
    paths: { ...lookups, ...wholeListPaths(), ...otherPaths() },
    components: {
      schemas: componentSchemas(),
      headers: HEADERS,
      responses: {
        OtherProblem: {
          description:
            'Any other refusal or failure: 405 for a method other than GET or HEAD, 500 when the explorer itself fails, or what the HTTP edge says before any route runs (a malformed request, headers too large, too slow).',
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
    'x-problem-codes': PROBLEM_CODE_MEANINGS,
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
