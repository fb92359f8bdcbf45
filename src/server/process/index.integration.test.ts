import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURE_IDS } from '../../catalogue/demo-fixtures.ts';
import { startCatalogue, type StartedCatalogue } from '../../catalogue/start-catalogue.ts';

// `node src/server/index.ts` as users run it: it refuses a half configuration with a clear
// message, logs JSON lines without credentials, and on SIGTERM lets a request in flight
// finish before it exits (the HTTP edge's own behaviour under load: http-shutdown.integration.test.ts).
// Runs in an empty directory, so no developer's .env takes part.

const INDEX = resolve('src/server/index.ts');
const API_KEY = randomBytes(16).toString('hex');
const API_SECRET = randomBytes(24).toString('hex');

let catalogue: StartedCatalogue;
let workDir: string;

beforeAll(async () => {
  catalogue = await startCatalogue({
    apiKey: API_KEY,
    apiSecret: API_SECRET,
    dataDir: resolve('data'),
    faultControl: true,
  });
  workDir = mkdtempSync(join(tmpdir(), 'explorer-run-'));
  writeFileSync(
    join(workDir, 'index.html'),
    '<!doctype html><div id="root"><!--app-html--></div><!--app-state-->',
  );
});

afterAll(async () => {
  await catalogue.close();
  rmSync(workDir, { recursive: true, force: true });
});

function run(env: Record<string, string>) {
  const child = spawn(process.execPath, [INDEX], {
    cwd: workDir,
    env: {
      PATH: process.env.PATH ?? '',
      STATIC_ROOT: workDir,
      PORT: '0',
      HOST: '127.0.0.1',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
  return { child, exited, output: () => ({ stdout, stderr }) };
}

async function listeningUrl(
  child: ChildProcess,
  output: () => { stdout: string },
): Promise<string> {
  for (let waited = 0; waited < 15_000; waited += 20) {
    const line = output()
      .stdout.split('\n')
      .find((l) => l.includes('"explorer listening"'));
    if (line) return (JSON.parse(line) as { url: string }).url;
    if (child.exitCode !== null) break;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`the explorer did not start:\n${JSON.stringify(output())}`);
}

describe('npm start (src/server/index.ts)', () => {
  it('refuses to start with a base URL but no key and secret, saying why', async () => {
    const { exited, output } = run({ CATALOGUE_BASE_URL: catalogue.url });
    expect(await exited).toBe(1);
    expect(output().stderr).toMatch(/CATALOGUE_API_KEY and CATALOGUE_API_SECRET are not/);
  });

  it('serves, logs JSON without credentials, and shuts down gracefully on SIGTERM', async () => {
    const { child, exited, output } = run({
      CATALOGUE_BASE_URL: catalogue.url,
      CATALOGUE_API_KEY: API_KEY,
      CATALOGUE_API_SECRET: API_SECRET,
    });
    const url = await listeningUrl(child, output);
    expect((await fetch(`${url}/healthz`)).status).toBe(200);

    // A slow upstream answer is in flight when SIGTERM arrives: it still completes.
    await fetch(`${catalogue.url}/__faults`, {
      method: 'PUT',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ latencyMs: 300 }),
    });
    const inFlight = fetch(`${url}/api/v1/playlist?id=${FIXTURE_IDS.playlist100}`);
    await new Promise((r) => setTimeout(r, 100));
    child.kill('SIGTERM');
    const response = await inFlight;
    expect(response.status).toBe(200);
    // Its answer tells the client the connection goes with it (http-server.ts).
    expect(response.headers.get('connection')).toBe('close');
    expect((await response.json()) as object).toHaveProperty('items');
    expect(await exited).toBe(0);
    await fetch(`${catalogue.url}/__faults`, { method: 'DELETE' });

    const { stdout, stderr } = output();
    const lines = stdout
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
    expect(stdout + stderr).not.toContain(API_KEY);
    expect(stdout + stderr).not.toContain(API_SECRET);
    await expect(fetch(`${url}/healthz`)).rejects.toThrow();
  });
});
