import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURE_IDS } from '../../catalogue/demo-fixtures.ts';
import { statusOf, type ProblemCode } from '../../shared/problem-codes.ts';
import { ROUTER_PROBLEMS } from '../http/operation.ts';
import {
  startExplorerFixture,
  type ExplorerFixture,
  type ServedExplorer,
} from '../../test-support/explorer-fixture.ts';
import { API_OPERATIONS } from './api-operations.ts';

// The query each operation's zod schema lists is the one its route reads: every name it lists
// is taken, and a name given twice or one it does not list gets an answer the row declares.

const EXAMPLE: Record<string, string> = {
  list: 'playlist',
  id: FIXTURE_IDS.playlist101,
  format: 'csv',
};
const withQuery = API_OPERATIONS.filter((op) => op.method === 'get' && op.input.query);
const pathOf = (template: string) =>
  template.replace(/\{([^}]+)\}/g, (_, name: string) => EXAMPLE[name] ?? name);

let fixture: ExplorerFixture;
let explorer: ServedExplorer;
beforeAll(async () => {
  fixture = await startExplorerFixture();
  explorer = await fixture.serve({ STATIC_ROOT: 'no-such-build' });
});
afterAll(() => fixture.close());

/** The answer's problem code, when it is a problem. */
async function answer(query: string, path: string) {
  const response = await explorer.get(`${path}?${query}`);
  const type = response.headers.get('content-type') ?? '';
  const code = type.startsWith('application/problem+json')
    ? ((await response.json()) as { code: ProblemCode }).code
    : (await response.body?.cancel(), undefined);
  return { status: response.status, code };
}

describe('each operation’s query, as its table row lists it', () => {
  it.each(withQuery.map((op) => [op.id, op] as const))('%s', async (_, op) => {
    const path = pathOf(op.path);
    const declared = (status: number, code: ProblemCode | undefined) =>
      code === undefined
        ? Object.hasOwn(op.answers, String(status))
        : statusOf(code) === status && [...op.problems, ...ROUTER_PROBLEMS].includes(code);
    const names = Object.keys(op.input.query?.schema.shape ?? {});
    for (const name of names) {
      const taken = await answer(`${name}=1`, path);
      expect(taken.code, name).not.toBe('unknown_parameter');
      const twice = await answer(`${name}=1&${name}=1`, path);
      expect(declared(twice.status, twice.code), `${name} twice: ${twice.code}`).toBe(true);
    }
    const unknown = await answer(`${names[0]}=1&not-listed=1`, path);
    expect(declared(unknown.status, unknown.code), `unknown: ${unknown.code}`).toBe(true);
  });
});
