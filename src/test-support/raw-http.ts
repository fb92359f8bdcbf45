import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

// For tests of the HTTP edge (src/server/process/http-server.ts) only: `node src/server/index.ts` as a
// child process, and HTTP/1.1 spoken byte by byte over node:net, so that what a test sees is
// exactly what went over the wire: bytes a client library would refuse to send, answers it
// would hide, and resets it would turn into retries.

const INDEX = resolve('src/server/index.ts');

export interface ExplorerProcess {
  child: ChildProcess;
  port: number;
  /** Exit code and when (performance.now()) it came. */
  exited: Promise<{ code: number | null; at: number }>;
  /** Log lines so far, parsed; the per-request lines are counted, not kept. */
  logLines(): Array<Record<string, unknown>>;
  stderr(): string;
  /** SIGKILL if still running, and the working directory removed. */
  dispose(): Promise<void>;
}

/** Starts the explorer (embedded catalogue) in an empty directory, and waits until it listens. */
export async function startExplorerProcess(env: Record<string, string>): Promise<ExplorerProcess> {
  const workDir = mkdtempSync(join(tmpdir(), 'explorer-edge-'));
  writeFileSync(join(workDir, 'index.html'), '<!doctype html><div id="root"><!--app-html--></div>');
  const child = spawn(process.execPath, [INDEX], {
    cwd: workDir,
    env: {
      STATIC_ROOT: workDir,
      CATALOGUE_DATA_DIR: resolve('data'),
      PORT: '0',
      HOST: '127.0.0.1',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: Array<Record<string, unknown>> = [];
  let partial = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    const text = partial + chunk.toString();
    const complete = text.split('\n');
    partial = complete.pop() ?? '';
    for (const line of complete) {
      if (line.includes('"msg":"request"')) continue;
      try {
        lines.push(JSON.parse(line) as Record<string, unknown>);
      } catch {
        lines.push({ unparsed: line });
      }
    }
  });
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<{ code: number | null; at: number }>((done) =>
    child.once('exit', (code) => done({ code, at: performance.now() })),
  );

  const dispose = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGKILL');
      await exited;
    }
    rmSync(workDir, { recursive: true, force: true });
  };

  for (let waited = 0; waited < 20_000; waited += 25) {
    const listening = lines.find((line) => line.msg === 'explorer listening');
    if (listening !== undefined) {
      const port = Number(new URL(listening.url as string).port);
      return { child, port, exited, logLines: () => lines, stderr: () => stderr, dispose };
    }
    if (child.exitCode !== null) break;
    await new Promise((r) => setTimeout(r, 25));
  }
  await dispose();
  throw new Error(`the explorer did not start:\n${stderr}\n${JSON.stringify(lines)}`);
}

export interface RawResponse {
  status: number;
  /** Names lower-cased; repeated ones joined with ", ". */
  headers: Record<string, string>;
  body: Buffer;
}

/** Reads HTTP/1.1 responses (Content-Length or chunked bodies) off a byte stream. */
export class ResponseReader {
  private buffer: Buffer = Buffer.alloc(0);

  /** The responses `chunk` completes. */
  push(chunk: Buffer): RawResponse[] {
    this.buffer = this.buffer.length === 0 ? chunk : Buffer.concat([this.buffer, chunk]);
    const done: RawResponse[] = [];
    for (;;) {
      const response = this.next();
      if (response === null) return done;
      done.push(response);
    }
  }

  /** Bytes of a response begun and not finished. */
  get pending(): number {
    return this.buffer.length;
  }

  private next(): RawResponse | null {
    const end = this.buffer.indexOf('\r\n\r\n');
    if (end === -1) return null;
    const [statusLine = '', ...fields] = this.buffer
      .subarray(0, end)
      .toString('latin1')
      .split('\r\n');
    const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1]);
    if (!Number.isInteger(status)) throw new Error(`not an HTTP response: ${statusLine}`);
    const headers: Record<string, string> = {};
    for (const field of fields) {
      const colon = field.indexOf(':');
      const name = field.slice(0, colon).trim().toLowerCase();
      const value = field.slice(colon + 1).trim();
      headers[name] = name in headers ? `${headers[name]}, ${value}` : value;
    }
    let offset = end + 4;
    let body: Buffer;
    if (headers['transfer-encoding']?.toLowerCase() === 'chunked') {
      const parts: Buffer[] = [];
      for (;;) {
        const lineEnd = this.buffer.indexOf('\r\n', offset);
        if (lineEnd === -1) return null;
        const size = parseInt(this.buffer.subarray(offset, lineEnd).toString('latin1'), 16);
        if (size === 0) {
          // No trailers from these servers: the last chunk ends with an empty line.
          if (this.buffer.length < lineEnd + 4) return null;
          offset = lineEnd + 4;
          break;
        }
        if (this.buffer.length < lineEnd + 2 + size + 2) return null;
        parts.push(this.buffer.subarray(lineEnd + 2, lineEnd + 2 + size));
        offset = lineEnd + 2 + size + 2;
      }
      body = Buffer.concat(parts);
    } else {
      const length = Number(headers['content-length'] ?? 0);
      if (this.buffer.length < offset + length) return null;
      body = this.buffer.subarray(offset, offset + length);
      offset += length;
    }
    this.buffer = this.buffer.subarray(offset);
    return { status, headers, body };
  }
}

export interface Exchange {
  responses: RawResponse[];
  /** ms from the first byte sent until the server ended the connection, or null if it did not. */
  closedAfterMs: number | null;
  /** A socket error the client saw (ECONNRESET, EPIPE), if any. */
  error: string | null;
}

/**
 * Sends `parts` over one connection, `gapMs` apart (a trickle when small and many), and
 * collects what comes back until the server closes the connection, `waitMs` passes or
 * `responses` answers have come. Stops sending once the server has closed its side.
 */
export function rawExchange(
  port: number,
  parts: Array<string | Buffer>,
  options: { gapMs?: number; waitMs?: number; responses?: number } = {},
): Promise<Exchange> {
  const { gapMs = 0, waitMs = 5_000, responses: wanted = Infinity } = options;
  return new Promise((done) => {
    const socket = connect(port, '127.0.0.1');
    const reader = new ResponseReader();
    const responses: RawResponse[] = [];
    let error: string | null = null;
    let started = 0;
    let closedAfterMs: number | null = null;
    let ended = false;
    let timer: NodeJS.Timeout | undefined;
    const giveUp = setTimeout(() => socket.destroy(), waitMs);
    socket.on('data', (chunk: Buffer) => {
      responses.push(...reader.push(chunk));
      if (responses.length >= wanted) socket.destroy();
    });
    socket.on('error', (e: NodeJS.ErrnoException) => (error ??= e.code ?? e.message));
    socket.on('end', () => {
      ended = true;
      closedAfterMs ??= performance.now() - started;
    });
    socket.on('close', () => {
      clearTimeout(giveUp);
      clearTimeout(timer);
      if (error !== null) closedAfterMs ??= performance.now() - started;
      done({ responses, closedAfterMs, error });
    });
    socket.on('connect', () => {
      started = performance.now();
      let index = 0;
      const sendNext = () => {
        if (ended || socket.destroyed || index >= parts.length) return;
        socket.write(parts[index++] as string | Buffer);
        if (index < parts.length) timer = setTimeout(sendNext, gapMs);
      };
      sendNext();
    });
  });
}

/** A text cut into pieces of `size` bytes, for trickling. */
export function piecesOf(text: string, size = 1): string[] {
  const pieces: string[] = [];
  for (let i = 0; i < text.length; i += size) pieces.push(text.slice(i, i + size));
  return pieces;
}

export interface LoadTally {
  /** Requests written. */
  sent: number;
  /** Complete responses read. */
  answered: number;
  /** Of those, the ones that said Connection: close. */
  saidClose: number;
  /** Responses completed after `mark` was set (e.g. after SIGTERM). */
  answeredAfterMark: number;
  /** Connection-level resets and broken pipes seen by the clients. */
  resets: number;
  /** Connections closed by the server with a request written and its answer not complete. */
  unanswered: number;
  /** Connections the server closed between requests without having said it would. */
  closedIdle: number;
  /** Connections refused (the server no longer listens). */
  refused: number;
  otherErrors: string[];
  statuses: Record<number, number>;
}

export function emptyTally(): LoadTally {
  return {
    sent: 0,
    answered: 0,
    saidClose: 0,
    answeredAfterMark: 0,
    resets: 0,
    unanswered: 0,
    closedIdle: 0,
    refused: 0,
    otherErrors: [],
    statuses: {},
  };
}

/**
 * One keep-alive client: on one connection, a request, its answer, the next request at once,
 * and so on; a new connection when the server closes one; done when a connection is refused
 * or `stop()` says so. `path(n)` gives the n-th request's path and may read the last body.
 */
export function keepAliveClient(
  port: number,
  path: (n: number, last: RawResponse | null) => string,
  tally: LoadTally,
  control: { stop: () => boolean; marked: () => boolean },
): Promise<void> {
  let n = 0;
  let last: RawResponse | null = null;
  return new Promise((done) => {
    const open = () => {
      if (control.stop()) return done();
      const socket: Socket = connect(port, '127.0.0.1');
      const reader = new ResponseReader();
      let outstanding = false;
      let toldClose = false;
      let refused = false;
      const send = () => {
        if (control.stop()) return void socket.end();
        outstanding = true;
        tally.sent += 1;
        socket.write(`GET ${path(n++, last)} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`);
      };
      socket.on('connect', send);
      socket.on('data', (chunk: Buffer) => {
        for (const response of reader.push(chunk)) {
          outstanding = false;
          last = response;
          tally.answered += 1;
          tally.statuses[response.status] = (tally.statuses[response.status] ?? 0) + 1;
          if (control.marked()) tally.answeredAfterMark += 1;
          if (response.headers.connection?.toLowerCase() === 'close') {
            tally.saidClose += 1;
            toldClose = true;
            socket.end();
          } else send();
        }
      });
      socket.on('error', (error: NodeJS.ErrnoException) => {
        if (error.code === 'ECONNRESET' || error.code === 'EPIPE') tally.resets += 1;
        else if (error.code === 'ECONNREFUSED') {
          tally.refused += 1;
          refused = true;
        } else tally.otherErrors.push(error.code ?? error.message);
      });
      socket.on('close', () => {
        if (outstanding && !refused) tally.unanswered += 1;
        else if (!toldClose && !refused && !control.stop()) tally.closedIdle += 1;
        if (refused) return done();
        open();
      });
    };
    open();
  });
}

export interface OpenConnection {
  /** Sends a GET and resolves with its answer; rejects if the connection closes first. */
  get(path: string): Promise<RawResponse>;
  /** Resolves when the connection has closed: the error seen, if any, and whether the server ended it. */
  closed: Promise<{ error: string | null; endedByServer: boolean; at: number }>;
  destroy(): void;
}

/** One keep-alive connection, driven request by request. */
export function openConnection(port: number): Promise<OpenConnection> {
  return new Promise((ready, fail) => {
    const socket = connect(port, '127.0.0.1');
    const reader = new ResponseReader();
    const waiting: Array<{ resolve: (r: RawResponse) => void; reject: (e: Error) => void }> = [];
    let error: string | null = null;
    let endedByServer = false;
    socket.on('data', (chunk: Buffer) => {
      for (const response of reader.push(chunk)) waiting.shift()?.resolve(response);
    });
    socket.on('end', () => (endedByServer = true));
    socket.on('error', (e: NodeJS.ErrnoException) => {
      error ??= e.code ?? e.message;
      fail(e);
    });
    const closed = new Promise<{ error: string | null; endedByServer: boolean; at: number }>(
      (done) =>
        socket.on('close', () => {
          for (const pending of waiting.splice(0))
            pending.reject(new Error(`connection closed before the answer (${String(error)})`));
          done({ error, endedByServer, at: performance.now() });
        }),
    );
    socket.on('connect', () =>
      ready({
        get: (path) =>
          new Promise((resolve, reject) => {
            waiting.push({ resolve, reject });
            socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`);
          }),
        closed,
        destroy: () => socket.destroy(),
      }),
    );
  });
}
