import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  channelPlaylist,
  channelVideo,
  playlistInfo,
  playlistItem,
} from '../test-support/test-upstream.ts';
import { endpoints, endpointNames, type EndpointName } from './endpoints.ts';
import { compileCheck } from './page-check.ts';

// The compiled check says yes exactly when zod's safeParse succeeds: on valid pages of every
// endpoint, and on every page made from one by changing a single field, anywhere, to a value
// of another kind or out of bounds, or by removing it or adding an unknown one.

const validPages: Record<EndpointName, object> = {
  playlist: {
    info: playlistInfo('PLabcdefghijklmnopqrstuvwxyz012345'),
    items: [playlistItem(1), { ...playlistItem(2), duration: null }],
    continuation: 'next+/=',
  },
  'channel-videos': {
    items: [channelVideo(1), { ...channelVideo(2), duration: 30, publishedText: '1 day ago' }],
    continuation: null,
  },
  'channel-playlists': { items: [channelPlaylist(1), channelPlaylist(2)], continuation: 'c' },
};

const DELETE = Symbol('delete');
const REPLACEMENTS: unknown[] = [
  DELETE,
  null,
  '',
  'x',
  '😀',
  0,
  -1,
  1,
  1.5,
  2 ** 53,
  [],
  [{}],
  {},
  true,
];

type Path = Array<string | number>;

/** Every path in a JSON value, containers included. */
function paths(value: unknown, at: Path = []): Path[] {
  const here = at.length > 0 ? [at] : [];
  if (Array.isArray(value)) return [...here, ...value.flatMap((v, i) => paths(v, [...at, i]))];
  if (typeof value === 'object' && value !== null)
    return [...here, ...Object.entries(value).flatMap(([k, v]) => paths(v, [...at, k]))];
  return here;
}

/** A deep copy with the value at `path` replaced (or removed). */
function replaced(page: object, path: Path, replacement: unknown): unknown {
  const copy = structuredClone(page) as Record<string | number, unknown>;
  let parent = copy;
  for (const key of path.slice(0, -1)) parent = parent[key] as Record<string | number, unknown>;
  const last = path.at(-1)!;
  if (replacement !== DELETE) parent[last] = structuredClone(replacement);
  else if (Array.isArray(parent)) parent.splice(last as number, 1);
  else delete parent[last];
  return copy;
}

describe('the compiled page check', () => {
  for (const name of endpointNames) {
    const schema = endpoints[name].pageSchema;
    const check = compileCheck(schema);
    const page = validPages[name];

    it(`${name}: agrees with zod on a valid page and on every one-field change to it`, () => {
      expect(check(page)).toBe(true);
      let compared = 0;
      for (const path of paths(page)) {
        for (const replacement of REPLACEMENTS) {
          const changed = replaced(page, path, replacement);
          const verdict = schema.safeParse(changed).success;
          expect(check(changed), `${path.join('.')} = ${String(replacement)}`).toBe(verdict);
          compared++;
        }
      }
      expect(compared).toBeGreaterThan(100);
      // An unknown field is allowed in every object (zod strips it, spec §3.4).
      const objects = [[], ...paths(page)].filter((path) => {
        const value = path.reduce<unknown>((v, k) => (v as Record<string, unknown>)[k], page);
        return typeof value === 'object' && value !== null && !Array.isArray(value);
      });
      for (const path of objects)
        expect(check(replaced(page, [...path, 'extraField'], 1))).toBe(true);
    });

    it(`${name}: refuses what is not a page at all`, () => {
      for (const value of [null, undefined, [], 'page', 1, { items: {} }, { continuation: null }])
        expect(check(value)).toBe(false);
    });
  }

  it('bounds a playlist page to 100 items, as the schema does', () => {
    const check = compileCheck(endpoints.playlist.pageSchema);
    const page = (n: number) => ({
      items: Array.from({ length: n }, (_, i) => playlistItem(i + 1)),
      continuation: null,
    });
    expect(check(page(100))).toBe(true);
    expect(check(page(101))).toBe(false);
    expect(endpoints.playlist.pageSchema.safeParse(page(101)).success).toBe(false);
  });

  it('counts string lengths in code points, as zod does', () => {
    const cases: Array<[z.ZodType, string]> = [
      [z.string().min(2), '😀'],
      [z.string().min(2), 'a😀'],
      [z.string().min(1), ''],
      [z.string().max(1), '😀'],
      [z.string().max(1), '😀😀'],
      [z.string().max(2), 'ab\uD800'],
    ];
    for (const [schema, text] of cases)
      expect(compileCheck(schema)(text), text).toBe(schema.safeParse(text).success);
  });

  it('refuses to compile what it does not understand, rather than letting it through', () => {
    for (const schema of [
      z.union([z.string(), z.number()]),
      z.string().regex(/^a$/),
      z.strictObject({ a: z.string() }),
      z.enum(['a', 'b']),
      z.number().multipleOf(2),
    ])
      expect(() => compileCheck(schema)).toThrow(/not supported/);
  });
});
