import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createServer, request } from 'node:http';
import { parseArgs } from 'node:util';
import { freePort } from '../src/test-support/free-port.ts';
import { startTestRedis } from '../src/test-support/redis-server.ts';

// `npm run cluster`: the deployment of docs/replicas-and-redis.md on one machine, to try: a
// redis-server (persistence off), the embedded catalogue as the one upstream, three explorer
// replicas sharing state through that Redis, and in front of them a small balancer on
// PORT (8080) that routes by URL as the example nginx configuration does (a page's requests
// meet on one replica), trying the next replica when one does not answer. Each replica's own
// port is printed too. Stop a replica (kill PID) or Redis and watch the others, /readyz and
// /metrics (the token is printed). Ctrl-C stops everything.

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: process.env.PORT ?? '8080' },
    replicas: { type: 'string', default: '3' },
  },
});
const count = Number(values.replicas);
const children: ChildProcess[] = [];

function start(label: string, script: string, env: Record<string, string>): ChildProcess {
  const child = spawn(process.execPath, [script], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const prefix = (chunk: Buffer) =>
    chunk
      .toString()
      .split('\n')
      .filter((line) => line !== '' && !line.includes('"msg":"request"'))
      .map((line) => `[${label}] ${line}\n`)
      .join('');
  child.stdout?.on('data', (chunk: Buffer) => process.stdout.write(prefix(chunk)));
  child.stderr?.on('data', (chunk: Buffer) => process.stderr.write(prefix(chunk)));
  children.push(child);
  return child;
}

async function answers(url: string) {
  for (let i = 0; i < 200; i++) {
    try {
      await fetch(url);
      return;
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  throw new Error(`${url} did not answer`);
}

const redis = await startTestRedis();
const apiKey = randomBytes(12).toString('hex');
const apiSecret = randomBytes(24).toString('hex');
const cataloguePort = await freePort();
start('catalogue', 'src/catalogue/index.ts', {
  CATALOGUE_PORT: String(cataloguePort),
  CATALOGUE_API_KEY: apiKey,
  CATALOGUE_API_SECRET: apiSecret,
});
const catalogueUrl = `http://127.0.0.1:${cataloguePort}`;
await answers(`${catalogueUrl}/api/v1/playlist`);

const metricsToken = randomBytes(12).toString('hex');
const replicas: Array<{ port: number; pid: number | undefined }> = [];
for (let i = 1; i <= count; i++) {
  const port = await freePort();
  const child = start(`replica ${i}`, 'src/server/index.ts', {
    PORT: String(port),
    HOST: '127.0.0.1',
    CATALOGUE_BASE_URL: catalogueUrl,
    CATALOGUE_API_KEY: apiKey,
    CATALOGUE_API_SECRET: apiSecret,
    REDIS_URL: redis.url,
    EXPLORER_REPLICAS: String(count),
    TRUST_PROXY: 'true',
    PUBLIC_URL: `http://localhost:${values.port}`,
    METRICS_TOKEN: metricsToken,
  });
  replicas.push({ port, pid: child.pid });
}
await Promise.all(replicas.map((r) => answers(`http://127.0.0.1:${r.port}/healthz`)));

/** The replica for a URL: a stable hash of it, as nginx's `hash $request_uri consistent`. */
function pick(uri: string, attempt: number): number {
  let h = 2166136261;
  for (let i = 0; i < uri.length; i++) h = Math.imul(h ^ uri.charCodeAt(i), 16777619);
  return ((h >>> 0) + attempt) % replicas.length;
}

const balancer = createServer((req, res) => {
  const forward = (attempt: number) => {
    const target = replicas[pick(req.url ?? '/', attempt)]!;
    const upstream = request(
      {
        host: '127.0.0.1',
        port: target.port,
        method: req.method,
        path: req.url,
        headers: {
          ...req.headers,
          'x-forwarded-for': req.socket.remoteAddress ?? '',
          'x-forwarded-proto': 'http',
        },
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => {
      // That replica is gone: the next one, as nginx's proxy_next_upstream does.
      if (attempt + 1 < replicas.length && !res.headersSent) forward(attempt + 1);
      else if (!res.headersSent) res.writeHead(502).end();
      else res.destroy();
    });
    req.pipe(upstream);
  };
  forward(0);
});
balancer.listen(Number(values.port), '127.0.0.1', () => {
  console.log(`
Catalogue Explorer cluster
  balancer   http://localhost:${values.port}   (routes by URL, like docs/nginx.example.conf)
  replicas   ${replicas.map((r, i) => `#${i + 1} http://127.0.0.1:${r.port} (pid ${r.pid})`).join('\n             ')}
  redis      ${redis.url}   (redis-cli -p ${redis.port})
  catalogue  ${catalogueUrl}
  metrics    curl -H 'Authorization: Bearer ${metricsToken}' http://127.0.0.1:${replicas[0]!.port}/metrics
Try: kill a replica's pid, or stop Redis (redis-cli -p ${redis.port} shutdown), and keep browsing.
Ctrl-C stops everything.
`);
});

let stopping = false;
async function stop() {
  if (stopping) return;
  stopping = true;
  balancer.close();
  for (const child of children) child.kill('SIGTERM');
  await Promise.all(
    children.map(
      (child) =>
        new Promise<void>((resolve) =>
          child.exitCode !== null ? resolve() : child.once('exit', () => resolve()),
        ),
    ),
  );
  await redis.stop();
  process.exit(0);
}
process.once('SIGINT', () => void stop());
process.once('SIGTERM', () => void stop());
