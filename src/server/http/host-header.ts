import type { IncomingMessage } from 'node:http';
import type { EdgeProblem } from './edge-problems.ts';

// RFC 9112 §3.2: a server answers 400 to an HTTP/1.1 request without a Host, with more than one,
// or with one whose value is not a host. Node checks only the first case, and answers it with a
// bare status; a repeated Host went through with the first value, and a value that is not a
// host reached @hono/node-server, which answered a bare 400 of its own. The edge
// (http-server.ts) asks this module first, so all three are problem documents.

/**
 * RFC 3986's `host [ ":" port ]`: an IP literal in brackets, or a reg-name (unreserved,
 * sub-delims and percent-encoded octets, which covers IPv4 and DNS names), and a port.
 */
const HOST_VALUE =
  /^(?:\[[0-9A-Za-z:.]+\]|(?:[A-Za-z0-9\-._~!$&'()*+,;=]|%[0-9A-Fa-f]{2})+)(?::\d*)?$/;

function problemFor(detail: string): EdgeProblem {
  return { code: 'bad_request', detail };
}

/** The problem with `req`'s Host header, or null when it has none. */
export function hostHeaderProblem(req: IncomingMessage): EdgeProblem | null {
  const raw = req.rawHeaders;
  let count = 0;
  let value = '';
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i] as string;
    if (name.length === 4 && name.toLowerCase() === 'host') {
      count += 1;
      value = raw[i + 1] as string;
    }
  }
  if (count === 0) {
    // HTTP/1.0 predates Host and may leave it out.
    if (req.httpVersionMajor === 1 && req.httpVersionMinor === 0) return null;
    return problemFor('The request has no Host header; HTTP/1.1 requires one.');
  }
  if (count > 1) return problemFor('The request has more than one Host header.');
  if (!HOST_VALUE.test(value)) return problemFor('The Host header is not a host name or address.');
  return null;
}
