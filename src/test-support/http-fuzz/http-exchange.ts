import { Agent, request, type IncomingHttpHeaders } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import type { WireRequest } from './fuzz-case.ts';

// One request over a real socket, with node's HTTP client: the target goes out byte for byte
// (no URL parsing on the way, unlike fetch, so `/api/v1/../` and `%2e%2e` reach the server as
// written), and the answer comes back whole, its content coding undone.

export interface WireResponse {
  status: number;
  headers: IncomingHttpHeaders;
  /** As received. */
  raw: Buffer;
  /** With its Content-Encoding undone; null when that failed (`decodeError` says why). */
  body: Buffer | null;
  decodeError: string | null;
  ms: number;
}

export type Outcome = { ok: true; response: WireResponse } | { ok: false; error: string };

/**
 * Long enough for the slowest honest answer, so that only a hang counts as none: a summary of
 * the demo's big channel walks all its pages before the first byte, which is slow on a small
 * machine busy with other work.
 */
const ANSWER_TIMEOUT_MS = 20_000;
const NO_ANSWER = `no answer in ${ANSWER_TIMEOUT_MS} ms`;

function decode(
  raw: Buffer,
  coding: string | undefined,
): { body: Buffer | null; error: string | null } {
  try {
    if (coding === undefined || coding === '' || coding === 'identity')
      return { body: raw, error: null };
    if (coding === 'br') return { body: brotliDecompressSync(raw), error: null };
    if (coding === 'gzip') return { body: gunzipSync(raw), error: null };
    return { body: null, error: `unknown content coding ${coding}` };
  } catch (error) {
    return { body: null, error: `${coding} body does not decode: ${(error as Error).message}` };
  }
}

function once(
  agent: Agent,
  origin: URL,
  wire: WireRequest,
  localAddress: string | undefined,
): Promise<Outcome & { reused: boolean }> {
  return new Promise((resolve) => {
    const started = performance.now();
    const hasHost = wire.headers.some(([name]) => name.toLowerCase() === 'host');
    // Framed by its length: node would send a GET's body unframed, as the start of a next request.
    const length: string[] =
      wire.body === null ? [] : ['content-length', String(Buffer.byteLength(wire.body))];
    let reused = false;
    const req = request(
      {
        host: origin.hostname,
        port: origin.port,
        method: wire.method,
        path: wire.target,
        // A list keeps repeated and odd headers as they are; node adds no Host to one.
        headers: [
          ...(hasHost || wire.omitHost ? [] : ['host', origin.host]),
          ...length,
          ...wire.headers.flat(),
        ],
        agent,
        localAddress,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('error', (error) => resolve({ ok: false, error: error.message, reused }));
        res.on('end', () => {
          const raw = Buffer.concat(chunks);
          // A HEAD or a 304 names the coding its body would have, and has none.
          const bodiless = wire.method === 'HEAD' || res.statusCode === 304;
          const { body, error } = bodiless
            ? { body: raw, error: null }
            : decode(raw, res.headers['content-encoding']);
          resolve({
            ok: true,
            reused,
            response: {
              status: res.statusCode ?? 0,
              headers: res.headers,
              raw,
              body,
              decodeError: error,
              ms: performance.now() - started,
            },
          });
        });
      },
    );
    req.on('socket', () => (reused = req.reusedSocket));
    // A CONNECT's answer comes as 'connect' (node hands over the socket, as for a tunnel), not
    // as a response: read what the server sent there, then let the socket go.
    req.on('connect', (res, socket, head) => {
      const collected: Buffer[] = [head];
      const length = Number(res.headers['content-length'] ?? 0);
      const received = () => collected.reduce((sum, chunk) => sum + chunk.length, 0);
      const finish = () => {
        const raw = Buffer.concat(collected);
        const response = { status: res.statusCode ?? 0, headers: res.headers, raw, body: raw };
        resolve({
          ok: true,
          reused,
          response: { ...response, decodeError: null, ms: performance.now() - started },
        });
      };
      socket.on('data', (chunk: Buffer) => {
        collected.push(chunk);
        if (received() >= length) socket.destroy();
      });
      socket.once('close', finish);
      socket.on('error', () => {});
      socket.setTimeout(ANSWER_TIMEOUT_MS, () => socket.destroy());
      if (received() >= length) socket.destroy();
    });
    req.setTimeout(ANSWER_TIMEOUT_MS, () => req.destroy(new Error(NO_ANSWER)));
    req.on('error', (error) => resolve({ ok: false, error: error.message, reused }));
    req.end(wire.body ?? undefined);
  });
}

/**
 * A client for one origin, keeping its connection alive between requests as a browser does;
 * from `localAddress` (a loopback address: another client to the server's per-client limits).
 */
export function createExchange(
  origin: string,
  localAddress?: string,
): {
  send(wire: WireRequest): Promise<Outcome>;
  close(): void;
} {
  const url = new URL(origin);
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  return {
    async send(wire) {
      const first = await once(agent, url, wire, localAddress);
      // A kept-alive connection the server closed just as we reused it: a browser retries on a
      // new one, and so do we (once). Not an answer that never came: that is the server's.
      if (!first.ok && first.reused && first.error !== NO_ANSWER)
        return once(agent, url, wire, localAddress);
      return first;
    },
    close: () => agent.destroy(),
  };
}
