import {
  createServer,
  type IncomingMessage,
  type RequestListener,
  type Server,
  type ServerResponse,
} from 'node:http';
import { Server as NetServer, type Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type { Logger } from 'pino';
import type { HttpTimeouts } from '../config.ts';
import {
  clientErrorProblem,
  edgeStatus,
  rawProblemResponse,
  REQUEST_TIMEOUT,
  sendProblem,
  type EdgeProblem,
} from '../http/edge-problems.ts';
import { hostHeaderProblem } from '../http/host-header.ts';

// The HTTP edge: the node:http server in front of the explorer's listener, with what node leaves
// to its user:
// - timeouts of our own, from the configuration: node's defaults are lax with slow headers and
//   bodies, and never time out a socket that has gone quiet;
// - an answer to everything: what node refuses before the app sees a request (an oversized
//   header section, bytes that are not HTTP, a slow request, a bad Host) gets a problem document
//   with the security headers, like every other answer (http/edge-problems.ts);
// - a stop that resets no one (`shutdown`).

export interface HttpEdge {
  server: Server;
  /**
   * Stops serving without cutting anyone off: no new connections; every answer from now on says
   * `Connection: close`; a keep-alive connection is closed only once it has been seen idle, so
   * a request already on its way still gets its answer. Connections still open after
   * `deadlineMs` are cut. Resolves when every connection is closed.
   */
  shutdown(deadlineMs: number): Promise<ShutdownReport>;
}

export interface ShutdownReport {
  /** Connections cut at the deadline. */
  forced: number;
  ms: number;
}

/** How long a connection must be seen idle before shutdown closes it (less for short deadlines). */
const QUIET_MS = 1_000;
/**
 * How long a closed connection is still read from, so that bytes the client sent before it saw
 * our close are taken in rather than answered with a reset, which can also destroy our last
 * answer before the client reads it.
 */
const LINGER_MS = 1_000;

/** What the edge knows of a connection. */
interface Connection {
  socket: Socket;
  /** The latest request on it, and its response. */
  request: IncomingMessage | null;
  response: ServerResponse | null;
  /**
   * socket.bytesRead when the latest request's head (or body, if it had one) was read: more since
   * means the next request has begun.
   */
  bytesAtRequest: number;
  /** The edge has answered it for the last time or is closing it: no request goes to the app. */
  closing: boolean;
  /** During shutdown: since when it has been seen idle, and its bytesRead then. */
  quietSince: number | undefined;
  quietMark: number;
}

/**
 * How often node looks for requests over their headers or request timeout. A request is cut at
 * most this long after its timeout, so at most a second, and finer for short timeouts.
 */
export function checkingIntervalMs(timeouts: HttpTimeouts): number {
  const shortest = Math.min(timeouts.headersMs, timeouts.requestMs);
  return Math.max(25, Math.min(1_000, Math.floor(shortest / 10)));
}

/** A response is still owed or going out on the connection, or the app has the message. */
function appOwnsExchange(connection: Connection | undefined): boolean {
  if (connection === undefined || connection.response === null) return false;
  return !connection.response.writableFinished || connection.request?.complete === false;
}

function isIdle(connection: Connection): boolean {
  return !appOwnsExchange(connection) && connection.socket.bytesRead === connection.bytesAtRequest;
}

/** Ends the connection after `last` (if any), reading on for a while before letting go. */
function closeGently(connection: Connection, last?: Buffer) {
  connection.closing = true;
  const { socket } = connection;
  const release = () => {
    if (socket.writableFinished) socket.destroy();
    else socket.once('finish', () => socket.destroy());
  };
  const linger = setTimeout(() => socket.destroy(), LINGER_MS);
  linger.unref();
  socket.once('close', () => clearTimeout(linger));
  if (socket.readableEnded) release();
  else socket.once('end', release);
  if (last === undefined) socket.end();
  else socket.end(last);
}

export function createHttpEdge(
  listener: RequestListener,
  options: { timeouts: HttpTimeouts; logger?: Logger },
): HttpEdge {
  const { timeouts, logger } = options;
  const connections = new Map<Socket, Connection>();
  let stopping = false;

  const onRequest: RequestListener = (req, res) => {
    const connection = connections.get(req.socket);
    if (connection !== undefined) {
      // A request that arrives after the edge has said its last word on this connection
      // cannot be answered on it any more.
      if (connection.closing) return void req.socket.destroy();
      connection.request = req;
      connection.response = res;
      connection.bytesAtRequest = req.socket.bytesRead;
      // A body may come in later reads: what follows its end is the next request.
      if (
        req.headers['content-length'] !== undefined ||
        req.headers['transfer-encoding'] !== undefined
      )
        req.once('end', () => (connection.bytesAtRequest = req.socket.bytesRead));
    }
    if (stopping) res.setHeader('Connection', 'close');
    const hostProblem = hostHeaderProblem(req);
    if (hostProblem !== null) {
      logger?.info(
        { status: edgeStatus(hostProblem), code: hostProblem.code },
        'request refused at the edge',
      );
      return sendProblem(res, hostProblem, { close: true });
    }
    listener(req, res);
  };

  const server = createServer(
    {
      headersTimeout: timeouts.headersMs,
      requestTimeout: timeouts.requestMs,
      keepAliveTimeout: timeouts.keepAliveMs,
      connectionsCheckingInterval: checkingIntervalMs(timeouts),
      // A missing Host is answered by hostHeaderProblem, as a problem document.
      requireHostHeader: false,
    },
    onRequest,
  );
  // Without a 'timeout' listener, node destroys a socket quiet for this long.
  server.timeout = timeouts.idleMs;

  server.on('connection', (socket: Socket) => {
    connections.set(socket, {
      socket,
      request: null,
      response: null,
      bytesAtRequest: 0,
      closing: false,
      quietSince: undefined,
      quietMark: 0,
    });
    socket.once('close', () => {
      connections.delete(socket);
      onConnectionClosed();
    });
  });

  server.on('clientError', (error: Error & { code?: string }, duplex: Duplex) => {
    const socket = duplex as Socket;
    const connection = connections.get(socket);
    const edgeProblem = clientErrorProblem(error);
    // Already answered: what follows is what the client sent before it saw our answer.
    if (connection?.closing === true && edgeProblem !== null) return;
    // Our answer would land inside (or after) the app's answer to the same exchange.
    if (edgeProblem === null || !socket.writable || appOwnsExchange(connection)) {
      logger?.debug({ code: error.code }, 'connection dropped at the edge');
      return void socket.destroy();
    }
    logger?.info(
      { status: edgeStatus(edgeProblem), code: edgeProblem.code, error: error.code },
      'request refused at the edge',
    );
    // A HEAD's answer has no body (RFC 9110 §9.3.2), even one refused before it was parsed.
    const head = (error as { rawPacket?: Buffer }).rawPacket?.subarray(0, 5).toString('latin1');
    answerAndClose(socket, edgeProblem, head === 'HEAD ');
  });

  // A socket quiet for idleMs (between requests, for keepAliveMs and node's one-second margin).
  // Node would destroy it; a request cut short this way is told why, like one over its headers
  // or request timeout.
  server.on('timeout', (socket: Socket) => {
    const connection = connections.get(socket);
    if (connection === undefined || connection.closing || appOwnsExchange(connection))
      return void socket.destroy();
    if (socket.bytesRead === connection.bytesAtRequest) return closeGently(connection);
    logger?.info(
      { status: edgeStatus(REQUEST_TIMEOUT), code: REQUEST_TIMEOUT.code },
      'request refused at the edge',
    );
    answerAndClose(socket, REQUEST_TIMEOUT);
  });

  // A CONNECT asks for a tunnel; without a listener node drops the connection unanswered.
  server.on('connect', (_req: IncomingMessage, socket: Duplex) => {
    // Node hands the socket over paused; it must be read on for the lingering close to work.
    socket.resume();
    answerAndClose(socket as Socket, {
      code: 'method_not_allowed',
      detail: 'This server answers GET and HEAD only; it opens no tunnels.',
      headers: { Allow: 'GET, HEAD' },
    });
  });

  // An Expect other than 100-continue: node's own 417 has no body.
  server.on('checkExpectation', (_req: IncomingMessage, res: ServerResponse) => {
    sendProblem(
      res,
      {
        code: 'expectation_failed',
        detail: 'This server meets no expectation but 100-continue.',
      },
      { close: stopping },
    );
  });

  function answerAndClose(socket: Socket, edgeProblem: EdgeProblem, headOnly = false) {
    const connection = connections.get(socket);
    const last = rawProblemResponse(edgeProblem, { headOnly });
    if (connection === undefined) socket.end(last, () => socket.destroy());
    else closeGently(connection, last);
  }

  let onConnectionClosed = () => {};
  let shutdownResult: Promise<ShutdownReport> | undefined;

  function shutdown(deadlineMs: number): Promise<ShutdownReport> {
    shutdownResult ??= new Promise((resolve) => {
      stopping = true;
      const started = performance.now();
      const quietMs = Math.min(QUIET_MS, deadlineMs / 4);
      let forced = 0;
      let listening = server.listening;

      const finish = () => {
        if (listening || connections.size > 0) return;
        clearInterval(sweeper);
        clearTimeout(deadline);
        resolve({ forced, ms: Math.round(performance.now() - started) });
      };
      onConnectionClosed = finish;

      // Answers not yet begun say they are the last on their connection.
      for (const { response } of connections.values()) {
        if (response !== null && !response.headersSent) response.setHeader('Connection', 'close');
      }

      // A connection is closed once it has been seen idle for quietMs: a client that was about
      // to send its next request has done so by then, and gets an answer that says close.
      const sweep = () => {
        const now = performance.now();
        for (const connection of connections.values()) {
          if (connection.closing) continue;
          if (!isIdle(connection)) {
            connection.quietSince = undefined;
            continue;
          }
          const mark = connection.socket.bytesRead;
          if (connection.quietSince === undefined || connection.quietMark !== mark) {
            connection.quietSince = now;
            connection.quietMark = mark;
          } else if (now - connection.quietSince >= quietMs) {
            // Once more after the event loop's poll phase, which takes in bytes that are
            // already here, so that none of them are left unread when the socket closes.
            setImmediate(() => {
              if (!connection.closing && isIdle(connection) && connection.socket.bytesRead === mark)
                closeGently(connection);
            });
          }
        }
      };
      const sweeper = setInterval(sweep, Math.max(10, quietMs / 5));
      sweep();

      const deadline = setTimeout(() => {
        forced = connections.size;
        if (forced > 0) {
          logger?.warn(
            { deadlineMs, connections: forced },
            'in-flight requests did not finish in time; closing connections',
          );
        }
        for (const { socket } of connections.values()) socket.destroy();
      }, deadlineMs);

      // net's close, not http's: both stop accepting and call back once the last connection
      // is gone, but http's (node ≥ 19) first destroys every keep-alive connection it finds
      // idle, resetting those on which a client has just sent its next request.
      if (listening) {
        NetServer.prototype.close.call(server, () => {
          listening = false;
          finish();
        });
      } else finish();
    });
    return shutdownResult;
  }

  return { server, shutdown };
}
