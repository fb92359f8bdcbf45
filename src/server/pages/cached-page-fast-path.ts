import type { IncomingMessage, ServerResponse } from 'node:http';
import { endpointNames, endpoints, type EndpointName } from '../../shared/endpoints.ts';
import type { Encoding } from '../http/compression.ts';
import { representationAnswer, variantFor, type Variant } from '../http/representation.ts';
import { withSecurityHeaders, type Answer } from '../http/responses.ts';
import { elapsedMs, type RequestLogger } from '../observability/request-log.ts';
import type { PageSource } from './page-source.ts';
import { pageHeaders, type StoredPage } from './page-entry.ts';
import { lookupFromQuery } from '../http/validate-lookup.ts';
import type { Lookup } from '../upstream/lookup.ts';

// Cached pages, answered on node:http before the Hono app sees the request: for a fresh hit the
// app decides nothing, and going through Hono cost enough garbage per request to make the
// cached-page throughput swing with the collector (docs/benchmarks.md, bench 1). A fresh hit
// (from memory, or the replicas' second level) is sent here with the route's own headers, coding
// and validators (page-entry.ts, http/representation.ts), built once per page and variant.
// Anything else or unusual goes on to the app, which defines every behaviour; the tests hold
// the two to the same answers (cached-page-fast-path.integration.test.ts).

/** A node:http handler: the Hono app's listener, for the fast path to hand requests on to. */
export type NodeHandler = (req: IncomingMessage, res: ServerResponse) => void;

/** Answers a cached page itself, or hands the request to `next`. */
export type FastPath = (req: IncomingMessage, res: ServerResponse, next: NodeHandler) => void;

const ENDPOINT_BY_PATH = new Map<string, EndpointName>(
  endpointNames.map((name) => [endpoints[name].path, name]),
);

/**
 * A query @hono/node-server passes to the app as it is: the characters it leaves alone
 * (its `reValidRequestUrl`), without `#`, and with `%`, which URL parsing keeps as it is.
 */
const PLAIN_QUERY = /^[!$&-;=?-[\]_a-z~%]*$/;
/** A Host header @hono/node-server takes without parsing it (its `reValidHost`). */
const PLAIN_HOST = /^[a-z0-9._-]+(?::(?:[1-5]\d{3,4}|[6-9]\d{3}))?$/;

/** A variant as a key: a 304's validator names the coding too. */
type VariantKey = `${200 | 304} ${Encoding | 'identity'}`;

const variantKey = (variant: Variant): VariantKey =>
  `${variant.notModified ? 304 : 200} ${variant.encoding ?? 'identity'}`;

/** The answers made so far for a page, per variant, with every header they go out with. */
type Sent = Partial<Record<VariantKey, Answer>>;

const header = (value: string | string[] | undefined) =>
  typeof value === 'string' ? value : undefined;

/** A request the fast path can answer: a GET of a valid lookup whose page is fresh. */
interface Hit {
  started: number;
  path: string;
  endpoint: EndpointName;
  lookup: Lookup;
  page: StoredPage;
  variant: Variant;
}

export function cachedPageFastPath(options: {
  pageSource: PageSource;
  requests: RequestLogger;
}): FastPath {
  const { pageSource, requests } = options;
  // Kept as long as the page is: a newer copy of the page starts afresh.
  const sentFor = new WeakMap<StoredPage, Sent>();

  /** A GET of a valid lookup that needs no decision but the page; undefined otherwise. */
  function candidateOf(req: IncomingMessage): Omit<Hit, 'page' | 'variant'> | undefined {
    const started = performance.now();
    const url = req.url ?? '';
    const mark = url.indexOf('?');
    if (req.method !== 'GET' || mark === -1) return undefined;
    const path = url.slice(0, mark);
    const endpoint = ENDPOINT_BY_PATH.get(path);
    const query = url.slice(mark + 1);
    if (endpoint === undefined || !PLAIN_QUERY.test(query)) return undefined;
    if (!PLAIN_HOST.test(req.headers.host ?? '')) return undefined;
    const checked = lookupFromQuery(endpoint, query);
    if (!checked.ok) return undefined;
    return { started, path, endpoint, lookup: checked.lookup };
  }

  const hitWith = (
    req: IncomingMessage,
    candidate: Omit<Hit, 'page' | 'variant'>,
    page: StoredPage,
  ): Hit => ({
    ...candidate,
    page,
    variant: variantFor(
      {
        acceptEncoding: header(req.headers['accept-encoding']),
        ifNoneMatch: header(req.headers['if-none-match']),
      },
      page,
      200,
    ),
  });

  /** The answer to a hit, as the lookup route would make it, with every header it goes out with. */
  async function answerFor({ lookup, page, variant }: Hit): Promise<Answer> {
    const answer = await representationAnswer(page, 200, pageHeaders('hit'), variant, (encoding) =>
      pageSource.encode(lookup, page, encoding),
    );
    const headers = withSecurityHeaders(answer.headers);
    if (answer.body !== null) headers['Content-Length'] = String(answer.body.length);
    return { ...answer, headers };
  }

  function send(req: IncomingMessage, res: ServerResponse, hit: Hit, answer: Answer) {
    res.writeHead(answer.status, answer.headers);
    res.end(answer.body ?? undefined);
    if (!requests.enabled()) return;
    requests.write({
      reqId: requests.idFor(header(req.headers['x-request-id'])),
      method: 'GET',
      path: hit.path,
      route: `api:${hit.endpoint}`,
      status: answer.status,
      ms: elapsedMs(hit.started),
      cache: 'hit',
    });
  }

  return (req, res, next) => {
    // Should anything here fail, the app answers: it does the same work, and turns a failure
    // into its 500 and a log line.
    const fallBack = () => (res.headersSent ? res.destroy() : next(req, res));
    const answer = (hit: Hit) => {
      const key = variantKey(hit.variant);
      const known = sentFor.get(hit.page)?.[key];
      if (known !== undefined) return send(req, res, hit, known);
      // The first time for this page and variant; a compressed copy may be in the making.
      answerFor(hit)
        .then((made) => {
          sentFor.set(hit.page, { ...sentFor.get(hit.page), [key]: made });
          send(req, res, hit, made);
        })
        .catch(fallBack);
    };
    try {
      const candidate = candidateOf(req);
      if (candidate === undefined) return next(req, res);
      const page = pageSource.fresh(candidate.lookup);
      if (page !== undefined) return answer(hitWith(req, candidate, page));
      // Not in this process's memory: perhaps in the second level (other replicas' pages),
      // which only a miss here ever asks, and which answers at once when there is none.
      const elsewhere = pageSource.freshInSecondLevel(candidate.lookup);
      if (elsewhere === undefined) return next(req, res);
      if (!(elsewhere instanceof Promise)) return answer(hitWith(req, candidate, elsewhere));
      elsewhere
        .then((found) =>
          found === undefined ? next(req, res) : answer(hitWith(req, candidate, found)),
        )
        .catch(fallBack);
    } catch {
      fallBack();
    }
  };
}
