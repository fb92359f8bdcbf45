import { z } from 'zod';
import { endpointNames, endpoints, type EndpointName } from '../../shared/endpoints.ts';
import { DEMO_ENTRIES_PATH, type DemoEntry } from '../../shared/explorer-api.ts';
import { CONTINUATION_MAX_LENGTH } from '../../shared/id-patterns.ts';
import { channelIdSchema, playlistIdSchema } from '../../shared/ids.ts';
import type { ProblemCode } from '../../shared/problem-codes.ts';
import type { Handler } from 'hono';
import type { AppEnv } from '../http/app-env.ts';
import {
  EXPORT_COLUMNS,
  EXPORT_TYPES,
  exportedItemSchemas,
  exportFormats,
  ITEM_URL_FIELD,
  listKindSchema,
  rangeQuerySchema,
  WHOLE_LIST_PATHS,
} from '../../shared/whole-list.ts';
import { described, type AnswerSpec, type Operation } from '../http/operation.ts';
import { LOOKUP_INPUT_PROBLEMS, LOOKUP_QUERY } from '../http/validate-lookup.ts';
import type { ExplorerMetrics } from '../observability/metrics.ts';
import { headerRef, schemaRef } from '../openapi/component-schemas.ts';
import type { PageSource } from '../pages/page-source.ts';
import { demoEntries } from './demo-entries.ts';
import { oembedRoute } from './oembed.ts';
import type { ChannelTitles } from '../rendering/channel-titles.ts';
import { OEMBED_PATH, oembedQuerySchema } from '../../shared/oembed.ts';
import { healthz, readyz, type ReadinessSources } from './health.ts';
import { lookup } from './lookups.ts';
import { metricsRoute } from './metrics.ts';
import { apiReference, openApiJson } from './openapi.ts';
import { cancelJob, createJob, jobResult, readJob, type JobRouteOptions } from './jobs.ts';
import { JOB_ID_PATTERN, JOBS_PATH } from '../../shared/jobs.ts';
import { JOB_POINTER_CODES } from '../../shared/job-pointer.ts';
import {
  exportRoute,
  summaryRoute,
  walkCostRoute,
  walkRoute,
  type WholeListOptions,
} from './whole-list.ts';

// The explorer's HTTP API as one table: for each operation its path, its parameters as zod
// schemas (a lookup's input is checked with these very ones), its handler, the answers and
// problem codes it can give, and its summary. The router registers the table
// (process/create-server-app.ts), the OpenAPI document is generated from it (openapi/), and the
// tests hold every route's answers to what its row declares. The prose that explains each
// operation to a reader is the document's (openapi/operation-prose.ts).

type Json = Record<string, unknown>;

/** What the handlers are built over: the app's parts, as the composition root made them. */
export interface ApiDeps extends ReadinessSources {
  pageSource: PageSource;
  /** Read the client's address from X-Forwarded-For (behind a reverse proxy only). */
  trustProxy: boolean;
  /** The home page's entries; null unless the upstream is the embedded demo catalogue. */
  demoEntries: DemoEntry[] | null;
  /** /metrics on this port for bearers of `token`; unset, there is no such route. */
  metrics?: { registry: ExplorerMetrics; token: string | undefined };
  /** Summaries, exports and walks of whole lists; unset, there are no such routes. */
  wholeList?: Omit<WholeListOptions, 'pageSource' | 'trustProxy'>;
  /** This table as an OpenAPI document (openapi/openapi-document.ts), built on first use. */
  document: () => Json;
  /** The public origin of absolute URLs; unset: the request's own. */
  publicUrl?: string;
  /** Channel names seen in playlist pages (rendering/channel-titles.ts). */
  channelTitles?: ChannelTitles;
  /** Whole-list work as jobs; unset, there are no such routes. */
  jobs?: Omit<JobRouteOptions, 'trustProxy'>;
}

// ---------------------------------------------------------------------------------------------
// Parameters and answers several operations share

const IF_NONE_MATCH = described(z.object({ 'If-None-Match': z.string().optional() }), {
  'If-None-Match': 'An ETag this client holds: 304 when the answer is unchanged.',
});

/** A whole list's `{list}/{id}`. */
const LIST = described(
  z.object({ list: listKindSchema, id: z.union([playlistIdSchema, channelIdSchema]) }),
  {
    list: 'Which list: a playlist’s videos, a channel’s videos or a channel’s playlists. Any other is a 404.',
    id: 'The playlist’s ID for `playlist`, the channel’s ID for the other two lists.',
  },
);

const json = (schema: Json) => ({ 'application/json': { schema } });

const NOT_STORED = {
  'Cache-Control': {
    description: 'Always `no-store`: the answer reflects the list and the quota at this moment.',
    schema: { type: 'string', const: 'no-store' },
  },
};

const NOT_MODIFIED: AnswerSpec = {
  description: 'The copy named by If-None-Match is current; no body.',
  headers: { ETag: headerRef('ETag') },
};

/** What a lookup of a list's page can fail with; whole lists read their first page first. */
const FIRST_PAGE_PROBLEMS: ProblemCode[] = [
  'not_found',
  'playlist_not_found',
  'channel_not_found',
  'rate_limited',
  'share_exhausted',
  'quota_exhausted',
  'upstream_rate_limited',
  // A call to the catalogue failing, as upstream/failure.ts maps it.
  'upstream_error',
  'upstream_credentials_rejected',
  'upstream_bad_response',
  'upstream_unavailable',
  'upstream_timeout',
];
/** Why a walk may be refused before it starts, besides its first page's problems. */
const WALK_PROBLEMS: ProblemCode[] = [
  'too_many_walks',
  'share_exhausted',
  'walks_busy',
  'shared_state_unavailable',
];
/** A walk refused up front says what it would have cost, or its place in the line. */
const WALK_COST_MEMBER: Partial<Record<ProblemCode, Record<string, Json>>> = {
  quota_exhausted: { cost: schemaRef('WalkCost') },
  share_exhausted: {
    cost: schemaRef('WalkCost'),
    shareLeft: {
      type: 'integer',
      description: 'Lookups left of this client’s share of the window.',
    },
  },
  walks_busy: {
    position: { type: 'integer', description: 'The place the walk had in the line.' },
  },
};

/**
 * A refusal a job would get past carries the request that starts that job (shared/job-pointer.ts),
 * when jobs are served; an export read before it answers also says how far it got.
 */
function withJobPointer(progress: boolean): Partial<Record<ProblemCode, Record<string, Json>>> {
  return Object.fromEntries(
    JOB_POINTER_CODES.map((code) => [
      code,
      {
        ...WALK_COST_MEMBER[code],
        job: schemaRef('JobPointer'),
        ...(progress ? { progress: schemaRef('WalkProgress') } : {}),
      },
    ]),
  );
}

const LOOKUP_SUMMARY: Record<EndpointName, string> = {
  playlist: 'One page of a playlist’s videos',
  'channel-videos': 'One page of a channel’s videos',
  'channel-playlists': 'One page of a channel’s playlists',
};

const operationIdOf = (name: EndpointName) =>
  `lookup${name.replace(/(^|-)(\w)/g, (_, _dash, c: string) => c.toUpperCase())}`;

function lookupOperation(name: EndpointName): Operation<ApiDeps> {
  return {
    id: operationIdOf(name),
    method: 'get',
    path: endpoints[name].path,
    tag: 'Lookups',
    summary: LOOKUP_SUMMARY[name],
    security: 'public',
    input: {
      query: described(LOOKUP_QUERY[name], {
        id: name === 'playlist' ? 'The playlist’s ID.' : 'The channel’s ID.',
        continuation: `The previous page’s \`continuation\`, byte for byte (at most ${CONTINUATION_MAX_LENGTH} characters). Percent-encode it: a \`+\` is read as itself, not as a space. Absent or empty: the first page.`,
      }),
      header: IF_NONE_MATCH,
    },
    answers: {
      '200': {
        description: 'The page.',
        headers: { ETag: headerRef('ETag'), 'X-Cache': headerRef('X-Cache') },
        content: json(schemaRef(endpoints[name].pageSchema)),
      },
      '304': NOT_MODIFIED,
    },
    problems: [
      ...LOOKUP_INPUT_PROBLEMS,
      // The list's own kind of 404, not the other's.
      ...FIRST_PAGE_PROBLEMS.filter(
        (code) => code !== (name === 'playlist' ? 'channel_not_found' : 'playlist_not_found'),
      ),
    ],
    handler: (deps) => lookup(name, deps),
  };
}

const JOB = described(z.object({ job: z.string().regex(JOB_ID_PATTERN) }), {
  job: 'The job’s ID, as its Location gave it: 22 characters, 128 random bits.',
});
const JOB_LOCATION = {
  description: 'The job’s own address.',
  schema: { type: 'string' },
};

/** A job operation's handler, when jobs are served. */
const jobRoute =
  (route: (options: JobRouteOptions) => Handler<AppEnv>) =>
  (deps: ApiDeps): Handler<AppEnv> | undefined =>
    deps.jobs === undefined ? undefined : route({ ...deps.jobs, trustProxy: deps.trustProxy });

/** A whole-list operation's handler, when whole lists are served. */
const wholeList =
  (route: (options: WholeListOptions) => ReturnType<typeof summaryRoute>) => (deps: ApiDeps) =>
    deps.wholeList === undefined
      ? undefined
      : route({
          ...deps.wholeList,
          pageSource: deps.pageSource,
          trustProxy: deps.trustProxy,
          jobs: deps.jobs !== undefined,
        });

const exportContent = {
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
        items: schemaRef(exportedItemSchemas[list]),
      })),
    },
  },
  [EXPORT_TYPES.txt]: { schema: { type: 'string' } },
};

// ---------------------------------------------------------------------------------------------
// The table

export const API_OPERATIONS: readonly Operation<ApiDeps>[] = [
  ...endpointNames.map(lookupOperation),
  {
    id: 'listSummary',
    method: 'get',
    path: `${WHOLE_LIST_PATHS.summary}/{list}/{id}`,
    tag: 'Whole lists',
    summary: 'Totals over a whole list, or a range of it',
    security: 'public',
    input: {
      path: LIST,
      query: described(rangeQuerySchema, {
        from: 'First position of the range, 1-based and inclusive.',
        to: 'Last position of the range, inclusive, not before `from`. Past the list’s end it is cut to the end (`range.clipped`).',
      }),
    },
    answers: {
      '200': {
        description: 'The summary.',
        headers: NOT_STORED,
        content: json(schemaRef('ListSummary')),
      },
    },
    problems: [
      'invalid_id',
      'invalid_range',
      'unknown_parameter',
      'repeated_parameter',
      ...WALK_PROBLEMS,
      ...FIRST_PAGE_PROBLEMS,
    ],
    problemMembers: withJobPointer(false),
    handler: wholeList(summaryRoute),
  },
  {
    id: 'walkCost',
    method: 'get',
    path: `${WHOLE_LIST_PATHS.cost}/{list}/{id}`,
    tag: 'Whole lists',
    summary: 'What reading a whole list would cost, before it starts',
    security: 'public',
    input: { path: LIST },
    answers: {
      '200': {
        description: 'The cost.',
        headers: NOT_STORED,
        content: json(schemaRef('WalkCost')),
      },
    },
    problems: ['invalid_id', 'unknown_parameter', ...FIRST_PAGE_PROBLEMS],
    handler: wholeList(walkCostRoute),
  },
  {
    id: 'walkList',
    method: 'get',
    path: `${WHOLE_LIST_PATHS.walk}/{list}/{id}`,
    tag: 'Whole lists',
    summary: 'The whole list, page by page, as a stream of events',
    security: 'public',
    input: { path: LIST },
    answers: {
      '200': {
        description: 'The walk, one event a line.',
        headers: NOT_STORED,
        content: { 'application/x-ndjson': { schema: schemaRef('WalkEvent') } },
      },
    },
    problems: ['invalid_id', 'unknown_parameter', ...WALK_PROBLEMS, ...FIRST_PAGE_PROBLEMS],
    problemMembers: withJobPointer(false),
    handler: wholeList(walkRoute),
  },
  {
    id: 'exportList',
    method: 'get',
    path: `${WHOLE_LIST_PATHS.export}/{list}/{id}.{format}`,
    tag: 'Whole lists',
    summary: 'The whole list as a file: CSV, JSON or plain text',
    security: 'public',
    input: {
      path: described(LIST.schema.extend({ format: z.enum(exportFormats) }), {
        ...LIST.descriptions,
        format: 'The file’s extension, which chooses its format; any other is a 404.',
      }),
      query: described(z.object({ bom: z.enum(['0', '1']).optional() }), {
        bom: "CSV only: `1` starts the file with a UTF-8 byte order mark, which Excel needs to read it as UTF-8 (the app’s own CSV link asks for it). In every CSV export, text cells are quoted and a cell that begins with `=`, `+`, `-`, `@`, a tab, a carriage return, a line feed, their full-width forms or `'` gets a `'` before it, so that no spreadsheet runs it as a formula; to read the data back, take one leading `'` off each text cell.",
      }),
    },
    answers: {
      '200': {
        description: 'The export, as an attachment.',
        headers: { 'Content-Disposition': headerRef('Content-Disposition'), ...NOT_STORED },
        content: exportContent,
      },
    },
    problems: [
      'invalid_id',
      'unknown_parameter',
      'repeated_parameter',
      'invalid_request',
      'list_too_long',
      ...WALK_PROBLEMS,
      ...FIRST_PAGE_PROBLEMS,
    ],
    problemMembers: withJobPointer(true),
    handler: wholeList(exportRoute),
  },
  {
    id: 'demoEntries',
    method: 'get',
    path: DEMO_ENTRIES_PATH,
    tag: 'Explorer',
    summary: 'What the home page offers to open',
    security: 'public',
    input: {},
    answers: { '200': { description: 'The entries.', content: json(schemaRef('DemoEntries')) } },
    problems: ['not_found'],
    handler: (deps) => demoEntries(deps.demoEntries),
  },
  {
    id: 'oembed',
    method: 'get',
    path: OEMBED_PATH,
    tag: 'Explorer',
    summary: 'The snippet that embeds a list on another site (oEmbed)',
    security: 'public',
    input: {
      query: described(oembedQuerySchema, {
        url: 'The URL of a list’s view on this explorer (a playlist, a channel’s videos or playlists).',
        format: 'Only `json`; any other is a 501.',
        maxwidth: 'The widest the embed may be, in CSS pixels.',
        maxheight: 'The tallest the embed may be, in CSS pixels.',
      }),
    },
    answers: {
      '200': { description: 'A `rich` oEmbed response.', content: json(schemaRef('OEmbed')) },
    },
    problems: [
      'invalid_request',
      'not_found',
      'unsupported_format',
      // The list's first page: an unknown list is this URL's 404, the rest as the lookup's.
      ...FIRST_PAGE_PROBLEMS.filter(
        (code) => code !== 'playlist_not_found' && code !== 'channel_not_found',
      ),
    ],
    handler: (deps) =>
      oembedRoute({
        pageSource: deps.pageSource,
        channelTitles: deps.channelTitles,
        publicUrl: deps.publicUrl,
        trustProxy: deps.trustProxy,
      }),
  },
  {
    id: 'healthz',
    method: 'get',
    path: '/healthz',
    tag: 'Operations',
    summary: 'Liveness: the process answers',
    security: 'public',
    input: {},
    answers: { '200': { description: 'Alive.', content: json(schemaRef('Health')) } },
    problems: [],
    handler: () => healthz,
  },
  {
    id: 'readyz',
    method: 'get',
    path: '/readyz',
    tag: 'Operations',
    summary: 'Readiness: whether this explorer should get traffic',
    security: 'public',
    input: {},
    answers: {
      '200': { description: 'Ready, or degraded but serving.', content: json(schemaRef('Health')) },
      '503': { description: 'Stopping, or degraded.', content: json(schemaRef('Health')) },
    },
    problems: [],
    handler: (deps) => readyz(deps),
  },
  {
    id: 'metrics',
    method: 'get',
    path: '/metrics',
    tag: 'Operations',
    summary: 'Prometheus metrics, for bearers of the configured token',
    security: 'metricsToken',
    input: {},
    answers: {
      '200': {
        description: 'The metrics.',
        content: { 'text/plain': { schema: { type: 'string' } } },
      },
    },
    problems: ['unauthorized'],
    handler: ({ metrics }) =>
      metrics?.token === undefined ? undefined : metricsRoute(metrics.registry, metrics.token),
  },
  {
    id: 'openApiDocument',
    method: 'get',
    path: WHOLE_LIST_PATHS.openapi,
    tag: 'Documentation',
    summary: 'This document',
    security: 'public',
    input: { header: IF_NONE_MATCH },
    answers: {
      '200': {
        description: 'The document.',
        headers: { ETag: headerRef('ETag') },
        content: json({ type: 'object' }),
      },
      '304': NOT_MODIFIED,
    },
    problems: [],
    handler: (deps) => openApiJson(deps.document),
  },
  {
    id: 'apiReference',
    method: 'get',
    path: WHOLE_LIST_PATHS.reference,
    tag: 'Documentation',
    summary: 'This document as a page to read',
    security: 'public',
    input: { header: IF_NONE_MATCH },
    answers: {
      '200': {
        description: 'An HTML page listing every operation.',
        headers: { ETag: headerRef('ETag') },
        content: { 'text/html': { schema: { type: 'string' } } },
      },
      '304': NOT_MODIFIED,
    },
    problems: [],
    handler: (deps) => apiReference(deps.document),
  },
  {
    id: 'createJob',
    method: 'post',
    path: JOBS_PATH,
    tag: 'Whole lists',
    summary: 'Starts a job for a whole list (or finds the same one again)',
    security: 'public',
    input: {},
    requestBody: {
      description: 'The list, the work, and an export’s format.',
      content: json(schemaRef('JobRequest')),
    },
    answers: {
      '202': {
        description: 'A new job, queued.',
        headers: { Location: JOB_LOCATION, ...NOT_STORED },
        content: json(schemaRef('Job')),
      },
      '200': {
        description: 'The same list, kind and format asked for by this client already: that job.',
        headers: { Location: JOB_LOCATION, ...NOT_STORED },
        content: json(schemaRef('Job')),
      },
    },
    problems: ['invalid_request', 'content_too_large', 'shared_state_unavailable'],
    handler: jobRoute(createJob),
  },
  {
    id: 'readJob',
    method: 'get',
    path: `${JOBS_PATH}/{job}`,
    tag: 'Whole lists',
    summary: 'A job’s state, progress and estimate',
    security: 'public',
    input: { path: JOB },
    answers: {
      '200': { description: 'The job.', headers: NOT_STORED, content: json(schemaRef('Job')) },
    },
    problems: ['not_found', 'shared_state_unavailable'],
    handler: jobRoute(readJob),
  },
  {
    id: 'cancelJob',
    method: 'delete',
    path: `${JOBS_PATH}/{job}`,
    tag: 'Whole lists',
    summary: 'Cancels a job',
    security: 'public',
    input: { path: JOB },
    answers: {
      '200': {
        description: 'The job, cancelled (or as it ended, if it had).',
        headers: NOT_STORED,
        content: json(schemaRef('Job')),
      },
    },
    problems: ['not_found', 'shared_state_unavailable'],
    handler: jobRoute(cancelJob),
  },
  {
    id: 'jobResult',
    method: 'get',
    path: `${JOBS_PATH}/{job}/result`,
    tag: 'Whole lists',
    summary: 'A finished job’s result, whole or a byte range of it',
    security: 'public',
    input: {
      path: JOB,
      header: described(IF_NONE_MATCH.schema.extend({ Range: z.string().optional() }), {
        ...IF_NONE_MATCH.descriptions,
        Range: 'One byte range (`bytes=START-END`, `bytes=START-`, `bytes=-LAST`).',
      }),
    },
    answers: {
      '200': {
        description: 'The result: the export’s file, the summary, or a load-all’s items as JSON.',
        headers: { ETag: headerRef('ETag') },
        content: {
          'text/csv': { schema: { type: 'string' } },
          'application/json': { schema: {} },
          'text/plain': { schema: { type: 'string' } },
        },
      },
      '206': { description: 'The byte range asked for.', headers: { ETag: headerRef('ETag') } },
      '304': NOT_MODIFIED,
    },
    problems: ['not_found', 'job_not_done', 'range_not_satisfiable', 'shared_state_unavailable'],
    handler: jobRoute(jobResult),
  },
];
