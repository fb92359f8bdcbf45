import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURE_IDS } from '../../catalogue/demo-fixtures.ts';
import { startExplorerFixture, type ExplorerFixture } from '../../test-support/explorer-fixture.ts';

// `node src/server/index.ts` as users run it: it refuses a half configuration with a clear
// message, logs JSON lines without credentials, and on SIGTERM lets a request in flight
// finish before it exits (the HTTP edge's own behaviour under load:
// http-shutdown.integration.test.ts). Runs in an empty directory, so no developer's .env takes
// part.

let fixture: ExplorerFixture;

beforeAll(async () => {
  fixture = await startExplorerFixture();
});

afterAll(() => fixture.close());

describe('npm start (src/server/index.ts)', () => {
  it('refuses to start with a base URL but no key and secret, saying why', async () => {
    const { exited, stderr } = fixture.spawn({
      CATALOGUE_API_KEY: undefined,
      CATALOGUE_API_SECRET: undefined,
    });
    expect(await exited).toBe(1);
    expect(stderr()).toMatch(/CATALOGUE_API_KEY and CATALOGUE_API_SECRET are not/);
  });

  it('serves, logs JSON without credentials, and shuts down gracefully on SIGTERM', async () => {
    const { child, exited, stdout, stderr, listening } = fixture.spawn();
    const url = await listening();
    expect((await fetch(`${url}/healthz`)).status).toBe(200);

    // A slow upstream answer is in flight when SIGTERM arrives: it still completes.
    await fixture.setFaults({ latencyMs: 300 });
    const inFlight = fetch(`${url}/api/v1/playlist?id=${FIXTURE_IDS.playlist100}`);
    // Signalled once the lookup has reached the upstream, however long that took: it is in
    // flight for the 300 ms the catalogue holds it.
    const reached = () =>
      fixture.upstream.requests.some((r) => r.url.includes(FIXTURE_IDS.playlist100));
    while (!reached()) await new Promise((r) => setTimeout(r, 10));
    child.kill('SIGTERM');
    const response = await inFlight;
    expect(response.status).toBe(200);
    // Its answer tells the client the connection goes with it (http-server.ts).
    expect(response.headers.get('connection')).toBe('close');
    expect((await response.json()) as object).toHaveProperty('items');
    expect(await exited).toBe(0);
    await fixture.reset();

    const lines = stdout()
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { msg: string });
    expect(lines.map((l) => l.msg)).toEqual(
      expect.arrayContaining([
        'starting',
        'explorer listening',
        'request',
        'shutting down',
        'stopped',
      ]),
    );
    expect(stdout() + stderr()).not.toContain(fixture.apiKey);
    expect(stdout() + stderr()).not.toContain(fixture.apiSecret);
    await expect(fetch(`${url}/healthz`)).rejects.toThrow();
  });
});
