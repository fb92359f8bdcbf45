import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { openDemoStore } from '../../catalogue/catalogue-db.ts';
import { createCatalogueApp } from '../../catalogue/create-catalogue-app.ts';
import { FIXTURE_IDS } from '../../catalogue/demo-fixtures.ts';
import { endpointNames, endpoints, type EndpointName } from '../../shared/endpoints.ts';
import { DEMO_ENTRIES_PATH } from '../../shared/explorer-api.ts';
import { problemCodes } from '../../shared/problem-codes.ts';
import { problem } from '../../shared/problem.ts';
import {
  exportFormats,
  exportPath,
  summaryPath,
  walkCostPath,
  walkPath,
  WHOLE_LIST_PATHS,
} from '../../shared/whole-list.ts';
import type { AppEnv } from '../http/app-env.ts';
import { API_OPERATIONS } from '../routes/api-operations.ts';
import { healthz, readyz } from '../routes/health.ts';
import { healthSchema } from './component-schemas.ts';
import { openApiDocument } from './openapi-document.ts';

// The document against the code it describes: OpenAPI 3.1 in shape, every route of the
// contract's tables in it, every reference resolving, and its schemas accepting what the
// embedded catalogue and the explorer really send.

type Json = Record<string, unknown>;
const document = openApiDocument() as Json & {
  paths: Record<string, Record<string, Json>>;
  components: { schemas: Record<string, Json> };
};
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

function operations() {
  return Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([method]) => METHODS.includes(method))
      .map(([method, operation]) => ({ path, method, operation })),
  );
}

/** Every `$ref` anywhere under `value`. */
function refsIn(value: unknown, found: string[] = []): string[] {
  if (Array.isArray(value)) for (const v of value) refsIn(v, found);
  else if (typeof value === 'object' && value !== null) {
    for (const [key, v] of Object.entries(value)) {
      if (key === '$ref' && typeof v === 'string') found.push(v);
      else refsIn(v, found);
    }
  }
  return found;
}

function pointer(ref: string): unknown {
  if (!ref.startsWith('#/')) return undefined;
  let target: unknown = document;
  for (const part of ref.slice(2).split('/'))
    target = (target as Json | undefined)?.[part.replaceAll('~1', '/').replaceAll('~0', '~')];
  return target;
}

/** A path template as a pattern: each `{name}` is one segment's worth of characters but `.`. */
const templatePattern = (template: string) =>
  new RegExp(
    `^${template
      .split(/\{[^}]+\}/)
      .map((part) => part.replace(/[.*+?^$()|[\]\\]/g, '\\$&'))
      .join('[^/.]+')}$`,
  );

describe('the document', () => {
  it('is OpenAPI 3.1 in shape', () => {
    expect(document.openapi).toMatch(/^3\.1\.\d+$/);
    expect(document.info).toMatchObject({ title: expect.any(String), version: expect.any(String) });
    expect(document.servers).toEqual([{ url: '/' }]);
    expect(Object.keys(document.paths).every((path) => path.startsWith('/'))).toBe(true);
    expect(Object.keys(document.components.schemas).length).toBeGreaterThan(10);
    // Components are plain schemas of the document's dialect, not documents of their own.
    for (const schema of Object.values(document.components.schemas)) {
      expect(schema).not.toHaveProperty('$schema');
      expect(schema).not.toHaveProperty('$id');
    }
  });

  it('gives every operation a unique id, answers, and its path parameters', () => {
    const ids = operations().map(({ operation }) => operation.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    for (const { path, operation } of operations()) {
      const responses = operation.responses as Json;
      expect(Object.keys(responses).length).toBeGreaterThan(0);
      for (const status of Object.keys(responses)) expect(status).toMatch(/^([1-5]\d\d|default)$/);
      const declared = ((operation.parameters as Json[] | undefined) ?? [])
        .filter((p) => p.in === 'path')
        .map((p) => {
          expect(p.required).toBe(true);
          return p.name;
        });
      const templated = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
      expect(declared.sort()).toEqual(templated.sort());
    }
  });

  it('lists each operation’s parameters from its zod schemas, each described', () => {
    for (const op of API_OPERATIONS) {
      const listed = (document.paths[op.path]?.[op.method]?.parameters as Json[] | undefined) ?? [];
      for (const where of ['path', 'query', 'header'] as const) {
        const shape = op.input[where]?.schema.shape ?? {};
        const inPart = listed.filter((p) => p.in === where);
        expect(
          inPart.map((p) => p.name),
          `${op.id} ${where}`,
        ).toEqual(Object.keys(shape));
        for (const p of inPart) {
          const field = shape[p.name as string] as z.ZodType;
          expect(p.required, `${op.id} ${String(p.name)}`).toBe(
            !field.safeParse(undefined).success,
          );
          expect(p.description, `${op.id} ${String(p.name)}`).toMatch(/\S/);
        }
      }
    }
    // A shared schema is its component, not a copy: the lookups' ID and continuation.
    const playlist = document.paths[endpoints.playlist.path]?.get?.parameters as Json[];
    expect(playlist.slice(0, 2).map((p) => p.schema)).toEqual([
      component('PlaylistId'),
      component('Continuation'),
    ]);
  });

  it('resolves every reference inside itself', () => {
    const refs = refsIn(document);
    expect(refs.length).toBeGreaterThan(20);
    for (const ref of refs) expect(pointer(ref), ref).toBeTypeOf('object');
  });

  it('names only problem codes the contract knows, and explains every one', () => {
    const known = new Set<string>(problemCodes);
    const named = operations().flatMap(({ operation }) =>
      Object.values(operation.responses as Json).flatMap(
        (response) => ((response as Json)['x-problem-codes'] as string[] | undefined) ?? [],
      ),
    );
    expect(named.length).toBeGreaterThan(0);
    for (const code of named) expect(known.has(code), code).toBe(true);
    expect(Object.keys(document['x-problem-codes'] as Json).sort()).toEqual(
      [...problemCodes].sort(),
    );
  });

  it('has every path of the contract', () => {
    const paths = Object.keys(document.paths);
    for (const name of endpointNames) expect(paths).toContain(endpoints[name].path);
    for (const path of [DEMO_ENTRIES_PATH, '/healthz', '/readyz', '/metrics'])
      expect(paths).toContain(path);
    for (const path of Object.values(WHOLE_LIST_PATHS))
      expect(
        paths.some((p) => p === path || p.startsWith(`${path}/`)),
        path,
      ).toBe(true);
  });

  it('matches the paths the contract builds, each with exactly one template', () => {
    const templates = Object.keys(document.paths);
    const built = endpointNames.flatMap((list) => {
      const id = list === 'playlist' ? FIXTURE_IDS.playlist101 : FIXTURE_IDS.smallChannel;
      return [
        summaryPath(list, id).split('?')[0] as string,
        walkPath(list, id),
        walkCostPath(list, id),
        ...exportFormats.map((format) => exportPath(list, id, format)),
      ];
    });
    for (const path of built) {
      const matching = templates.filter((t) => templatePattern(t).test(path));
      expect(matching, path).toHaveLength(1);
    }
  });

  it('is built once', () => {
    expect(openApiDocument()).toBe(document);
    expect((openApiDocument('https://explorer.example').servers as Json[])[0]).toEqual({
      url: 'https://explorer.example',
    });
  });
});

// ---------------------------------------------------------------------------------------------
// The whole document against the official OpenAPI 3.1 schema.

describe('the document, against the OpenAPI 3.1 schema', () => {
  it('is a valid OpenAPI 3.1 document', async () => {
    const validator = new Validator();
    const result = await validator.validate(document);
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
  });

  it('is judged, not waved through', async () => {
    // A copy broken in one place is refused, so the check above means something.
    const broken = structuredClone(document);
    (broken.paths['/healthz'] as Json).get = { responses: { ok: {} } };
    expect((await new Validator().validate(broken)).valid).toBe(false);
  });
});

// ---------------------------------------------------------------------------------------------
// The schemas against real answers.
//
// Ajv in strict mode judges the component schemas as JSON Schema draft 2020-12 (the document's
// jsonSchemaDialect): a keyword it does not know fails the test rather than passing unread. The
// OpenAPI schema above does not look inside Schema Objects, so this is what checks them.
// The components sit under one schema of their own, so that their `#/components/schemas/…`
// references resolve exactly as they do in the document.

const COMPONENTS_ID = 'https://catalogue-explorer.invalid/openapi.json';
const ajv = new Ajv2020({ strict: true, allErrors: true });
// `components` is the document's key, not a JSON Schema keyword: declared so strict mode lets
// the root through; everything under it is still compiled strictly when referenced.
ajv.addKeyword({ keyword: 'components', schemaType: 'object' });
ajv.addSchema({ $id: COMPONENTS_ID, components: document.components });

/** The errors of `value` against `schema`, a reference into the document (empty: valid). */
function check(schema: Json, value: unknown): string[] {
  if (typeof schema.$ref !== 'string' || !schema.$ref.startsWith('#/'))
    throw new Error(`not a reference into the document: ${JSON.stringify(schema)}`);
  const validate = ajv.getSchema(`${COMPONENTS_ID}${schema.$ref}`);
  if (validate === undefined) throw new Error(`no schema at ${schema.$ref}`);
  if (validate(value)) return [];
  return (validate.errors ?? []).map((e) => `$${e.instancePath}: ${e.message ?? e.keyword}`);
}

const component = (name: string) => ({ $ref: `#/components/schemas/${name}` });

describe('the schemas, against real answers', () => {
  const apiKey = 'openapi-test-key';
  const apiSecret = 'openapi-test-secret';
  let store: ReturnType<typeof openDemoStore>;
  let catalogue: ReturnType<typeof createCatalogueApp>;

  beforeAll(() => {
    // The demo database is read-only and shared with the other tests; built on first use.
    store = openDemoStore('data');
    catalogue = createCatalogueApp({ store, apiKey, apiSecret, thumbnailBaseUrl: '' });
  });
  afterAll(() => store.close());

  async function page(endpoint: EndpointName, id: string, continuation?: string) {
    const query = new URLSearchParams({ id });
    if (continuation !== undefined) query.set('continuation', continuation);
    const response = await catalogue.request(`${endpoints[endpoint].path}?${query}`, {
      headers: { 'API-Key': apiKey, 'API-Secret': apiSecret },
    });
    expect(response.status).toBe(200);
    return (await response.json()) as Json;
  }

  const pageSchema: Record<EndpointName, string> = {
    playlist: 'PlaylistPage',
    'channel-videos': 'ChannelVideosPage',
    'channel-playlists': 'ChannelPlaylistsPage',
  };

  it('are draft 2020-12 schemas, each compiled in strict mode', () => {
    for (const [name, schema] of Object.entries(document.components.schemas)) {
      expect(ajv.validateSchema(schema), `${name}: ${ajv.errorsText()}`).toBe(true);
      expect(() => check(component(name), null), name).not.toThrow();
    }
  });

  it('a playlist’s first and last pages are PlaylistPages, as the 200 answer says', async () => {
    const first = await page('playlist', FIXTURE_IDS.playlist101);
    expect(first.info).toBeDefined();
    const last = await page('playlist', FIXTURE_IDS.playlist101, first.continuation as string);
    expect(last.continuation).toBeNull();
    const answered = (
      (document.paths[endpoints.playlist.path]?.get?.responses as Json)['200'] as Json
    ).content as Record<string, Json>;
    const schema = answered['application/json']?.schema as Json;
    expect(schema).toEqual(component('PlaylistPage'));
    expect(check(schema, first)).toEqual([]);
    expect(check(schema, last)).toEqual([]);
  });

  it('refuses what is not a page', async () => {
    const first = await page('playlist', FIXTURE_IDS.playlist101);
    const items = first.items as Json[];
    const schema = component('PlaylistPage');
    expect(check(schema, { ...first, continuation: undefined })).not.toEqual([]);
    expect(check(schema, { ...first, items: [{ ...items[0], index: 0 }] })).not.toEqual([]);
    expect(check(schema, { ...first, items: [{ ...items[0], duration: '3:14' }] })).not.toEqual([]);
    // Fields added later are tolerated, as the contract's own parsing tolerates them.
    expect(check(schema, { ...first, addedLater: true })).toEqual([]);
  });

  it('a channel’s pages are theirs', async () => {
    for (const endpoint of ['channel-videos', 'channel-playlists'] as const) {
      const answer = await page(endpoint, FIXTURE_IDS.bigChannel);
      expect((answer.items as unknown[]).length).toBeGreaterThan(0);
      expect(check(component(pageSchema[endpoint]), answer), endpoint).toEqual([]);
    }
  });

  it('a problem document is a Problem', () => {
    const body = problem('quota_exhausted', 'Later.', { instance: '/x', retryAfter: 30 });
    expect(check(component('Problem'), body)).toEqual([]);
    expect(check(component('Problem'), { ...body, status: 200 })).not.toEqual([]);
  });

  it('the health probes answer what the document says', async () => {
    let credentialsRejected = false;
    let stopping = false;
    let sharingDown: string | undefined;
    const app = new Hono<AppEnv>();
    app.use(async (c, next) => {
      c.set('log', { route: '' });
      await next();
    });
    app.get('/healthz', healthz);
    app.get(
      '/readyz',
      readyz({
        upstream: {
          health: () => ({ credentialsRejected, lastSuccessAt: null, lastFailureAt: null }),
        },
        isStopping: () => stopping,
        sharingDown: () => sharingDown,
      }),
    );
    const bodies: unknown[] = [await (await app.request('/healthz')).json()];
    for (const [rejected, stop, down] of [
      [false, false, undefined],
      [true, false, undefined],
      [false, true, undefined],
      [false, false, 'connection refused'],
    ] as const) {
      credentialsRejected = rejected;
      stopping = stop;
      sharingDown = down;
      const response = await app.request('/readyz');
      const status = String(response.status);
      const operation = document.paths['/readyz']?.get as Json;
      expect(Object.keys(operation.responses as Json)).toContain(status);
      bodies.push(await response.json());
    }
    for (const body of bodies) {
      expect(healthSchema.safeParse(body).success, JSON.stringify(body)).toBe(true);
      expect(check(component('Health'), body)).toEqual([]);
    }
  });
});
