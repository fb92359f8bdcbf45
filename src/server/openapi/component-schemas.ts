import { z } from 'zod';
import type { ParameterSet } from '../http/operation.ts';
import {
  channelPlaylistSchema,
  channelPlaylistsPageSchema,
  channelVideoSchema,
  channelVideosPageSchema,
  playlistInfoSchema,
  playlistItemSchema,
  playlistPageSchema,
  thumbnailSchema,
} from '../../shared/catalogue-schema.ts';
import { demoEntriesSchema, demoEntrySchema } from '../../shared/explorer-api.ts';
import { oembedResponseSchema } from '../../shared/oembed.ts';
import { channelIdSchema, continuationSchema, playlistIdSchema } from '../../shared/ids.ts';
import { problemSchema } from '../../shared/problem.ts';
import { jobRequestSchema, jobSchema } from '../../shared/jobs.ts';
import { jobPointerSchema } from '../../shared/job-pointer.ts';
import {
  exportedItemSchemas,
  listKindSchema,
  listSummarySchema,
  notableItemSchema,
  quotaStateSchema,
  walkCostSchema,
  walkEventSchema,
  walkProgressSchema,
  walkStopSchema,
} from '../../shared/whole-list.ts';

// The document's component schemas, generated from the contract's zod schemas (src/shared)
// by zod's own JSON Schema output, so the document cannot drift from what the server checks
// and sends. Every schema named here becomes a component; where one contains another (a page
// holds items, an item holds thumbnails) the generator writes a $ref instead of a copy.
//
// The health probes are the one exception: their bodies are built in routes/health.ts with
// no shared schema, so they are described here and a test holds them to the real handlers.

/** `/healthz` and `/readyz` answer this (routes/health.ts). */
export const healthSchema = z.object({
  status: z.enum(['ok', 'ready', 'degraded', 'starting', 'stopping']),
  /** Why the explorer is not ready, or degraded, when it says. */
  reason: z.enum(['upstream_credentials_rejected', 'shared_state_unavailable']).optional(),
  /** What failed, when the state shared with other replicas is unreachable. */
  detail: z.string().optional(),
});

/** Component name → the contract's schema. The names are the document's public vocabulary. */
const NAMED_SCHEMAS = {
  // IDs and the opaque page token (ids.ts)
  PlaylistId: playlistIdSchema,
  ChannelId: channelIdSchema,
  Continuation: continuationSchema,
  // the three lookups' pages (catalogue-schema.ts)
  Thumbnail: thumbnailSchema,
  PlaylistInfo: playlistInfoSchema,
  PlaylistItem: playlistItemSchema,
  ChannelVideo: channelVideoSchema,
  ChannelPlaylist: channelPlaylistSchema,
  PlaylistPage: playlistPageSchema,
  ChannelVideosPage: channelVideosPageSchema,
  ChannelPlaylistsPage: channelPlaylistsPageSchema,
  // errors (problem.ts)
  Problem: problemSchema,
  // the explorer's own additions (explorer-api.ts)
  DemoEntry: demoEntrySchema,
  DemoEntries: demoEntriesSchema,
  OEmbed: oembedResponseSchema,
  // whole lists (whole-list.ts)
  ListKind: listKindSchema,
  NotableItem: notableItemSchema,
  WalkStop: walkStopSchema,
  ListSummary: listSummarySchema,
  QuotaState: quotaStateSchema,
  WalkCost: walkCostSchema,
  WalkProgress: walkProgressSchema,
  WalkEvent: walkEventSchema,
  ExportedPlaylistItem: exportedItemSchemas.playlist,
  ExportedChannelVideo: exportedItemSchemas['channel-videos'],
  ExportedChannelPlaylist: exportedItemSchemas['channel-playlists'],
  // jobs (jobs.ts)
  JobRequest: jobRequestSchema,
  Job: jobSchema,
  JobPointer: jobPointerSchema,
  // the health probes (see above)
  Health: healthSchema,
} as const;

export type SchemaName = keyof typeof NAMED_SCHEMAS;

type JsonSchema = Record<string, unknown>;

// A registry of our own: adding the shared schemas to it attaches no metadata to them.
const registry = z.registry<{ id: string }>();
for (const [id, schema] of Object.entries(NAMED_SCHEMAS)) registry.add(schema, { id });

/** A reference to a component schema: by its name, or by the contract's schema it is. */
export function schemaRef(named: SchemaName | z.ZodType) {
  const name = typeof named === 'string' ? named : registry.get(named)?.id;
  if (name === undefined) throw new Error('That schema is no component of the document.');
  return { $ref: `#/components/schemas/${name}` };
}

/**
 * zod writes `additionalProperties: false` for every object when it describes output. The
 * contract's objects strip unknown fields rather than refuse them, so that a newer upstream
 * that adds one keeps working (catalogue-schema.ts); a reader of the explorer is meant to be
 * as tolerant, and a document forbidding extra fields would make validating clients break on
 * an additive change. Only objects that strip lose it: a strict one would keep its refusal.
 */
function tolerateAddedFields(ctx: { zodSchema: unknown; jsonSchema: JsonSchema }): void {
  const def = (ctx.zodSchema as { _zod?: { def?: { type?: string; catchall?: unknown } } })._zod
    ?.def;
  if (def?.type === 'object' && def.catchall === undefined) {
    if (ctx.jsonSchema.additionalProperties === false) delete ctx.jsonSchema.additionalProperties;
  }
}

/** Options shared by every conversion: OpenAPI 3.1's dialect, the shapes as the server sends them. */
const CONVERSION = {
  target: 'draft-2020-12',
  io: 'output',
  // Nothing in the contract should be unrepresentable; if something becomes so, fail the
  // build's tests rather than publish a schema that says less than the code checks.
  unrepresentable: 'throw',
  override: tolerateAddedFields,
} as const;

/** The `components.schemas` of the document. */
export function componentSchemas(): Record<SchemaName, JsonSchema> {
  const { schemas } = z.toJSONSchema(registry, {
    ...CONVERSION,
    uri: (id) => `#/components/schemas/${id}`,
  });
  const out = {} as Record<SchemaName, JsonSchema>;
  for (const name of Object.keys(NAMED_SCHEMAS) as SchemaName[]) {
    // A component is not a document of its own: `$schema` is the document's
    // jsonSchemaDialect, and an `$id` would change the base that its $refs resolve against.
    const { $schema: _dialect, $id: _id, ...schema } = (schemas[name] ?? {}) as JsonSchema;
    out[name] = schema;
  }
  return out;
}

/**
 * The parameter objects of one part of a request, from its zod schema: a named schema becomes
 * a reference to its component (zod puts those under `$defs`, which are the same schemas).
 */
export function parameterObjects(where: 'path' | 'query' | 'header', set: ParameterSet) {
  const converted = JSON.stringify(
    z.toJSONSchema(set.schema, { ...CONVERSION, metadata: registry }),
  );
  const object = JSON.parse(converted.replaceAll('"#/$defs/', '"#/components/schemas/')) as {
    properties: Record<string, JsonSchema>;
    required?: string[];
  };
  return Object.entries(object.properties).map(([name, schema]) => ({
    name,
    in: where,
    required: object.required?.includes(name) ?? false,
    description: set.descriptions[name],
    schema,
  }));
}

/** A reference to one of the document's shared headers (openapi-document.ts). */
export const headerRef = (name: 'Retry-After' | 'ETag' | 'X-Cache' | 'Content-Disposition') => ({
  $ref: `#/components/headers/${name}`,
});
