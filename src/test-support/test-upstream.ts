import {
  createServer,
  request as httpRequest,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import type { PlaylistItem } from '../shared/catalogue-schema.ts';

// For tests and benchmarks only: a deliberately misbehaving lookup service, a real node:http
// server on loopback, so the explorer meets faults over real HTTP rather than a mocked fetch.
// It records every request it receives (to count upstream hits and inspect what was
// forwarded) and answers from a script of behaviours, then from a fallback that serves valid
// pages.

export interface RecordedRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
}

export type Behaviour = (req: IncomingMessage, res: ServerResponse) => void | Promise<void>;

export interface TestUpstream {
  url: string;
  requests: RecordedRequest[];
  hits(): number;
  /** The next answers, in order; afterwards the fallback answers. */
  queue(...behaviours: Behaviour[]): void;
  setFallback(behaviour: Behaviour): void;
  /** Forgets the requests seen and the script, and serves valid pages again. */
  reset(): void;
  close(): Promise<void>;
}

const thumbnails = [
  {
    url: 'https://i.ytimg.com/vi/dQw4w9WgXcQ/mqdefault.jpg?sqp=a%2Bb&rs=c',
    width: 320,
    height: 180,
  },
];

export function playlistItem(index: number) {
  return {
    index,
    id: 'dQw4w9WgXcQ',
    title: `Video ${index} <b>&</b>`,
    thumbnails,
    channelId: 'UCabcdefghijklmnopqrstuv',
    channelTitle: 'A channel',
    viewsText: '1.2M views',
    publishedText: '3 years ago',
    duration: 212,
  };
}

export function playlistInfo(id: string) {
  return {
    id,
    title: 'A playlist </script><script>alert(1)</script>',
    description: '',
    thumbnails,
    channelId: 'UCabcdefghijklmnopqrstuv',
    channelTitle: 'by A channel',
    totalItems: 2,
    views: 10,
    lastUpdated: 'Updated 2 days ago',
    url: `https://www.youtube.com/playlist?list=${id}`,
  };
}

export function channelVideo(n: number) {
  return {
    id: 'dQw4w9WgXcQ',
    title: `Channel video ${n}`,
    descriptionSnippet: '…',
    thumbnails,
    duration: null,
    viewCount: 5,
    publishedText: null,
  };
}

export function channelPlaylist(n: number) {
  return {
    id: `PLabcdefghijklmnopqrstuvwxyz0123${n}`,
    title: `List ${n}`,
    thumbnails,
    url: 'https://www.youtube.com/playlist',
    videoCount: 3,
  };
}

/** A valid page for whatever the request asks: first page → continuation `next+/=`, then null. */
export function validPageFor(url: URL): object {
  const id = url.searchParams.get('id') ?? '';
  const continuation = url.searchParams.get('continuation');
  switch (url.pathname) {
    case '/api/v1/playlist':
      return continuation === null
        ? { info: playlistInfo(id), items: [playlistItem(1)], continuation: 'next+/=%page2' }
        : { items: [playlistItem(2)], continuation: null };
    case '/api/v1/channel-videos':
      return { items: [channelVideo(1)], continuation: continuation === null ? 'cv+2' : null };
    default:
      return { items: [channelPlaylist(1)], continuation: null };
  }
}

export function json(
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): Behaviour {
  return (_req, res) => {
    res.writeHead(status, {
      'Content-Type': status >= 400 ? 'application/problem+json' : 'application/json',
      ...headers,
    });
    res.end(typeof body === 'string' ? body : JSON.stringify(body));
  };
}

export const validPage: Behaviour = (req, res) =>
  json(200, validPageFor(new URL(req.url ?? '/', 'http://x')))(req, res);

/**
 * Answers each lookup with the page `pageFor` gives for its URL (read `id` and `continuation`
 * from its query), or, when it gives undefined, with the 404 problem the catalogue sends for
 * an unknown playlist or channel (spec §2.2): for tests that need pages of their own making.
 */
export function pagesFrom(pageFor: (url: URL) => object | undefined): Behaviour {
  return (req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const page = pageFor(url);
    if (page !== undefined) return json(200, page)(req, res);
    const code = url.pathname.endsWith('/playlist') ? 'playlist_not_found' : 'channel_not_found';
    return json(404, {
      type: `https://catalogue-explorer.dev/problems/${code.replaceAll('_', '-')}`,
      title: 'Not Found',
      status: 404,
      detail: `Nothing has the ID ${url.searchParams.get('id') ?? ''}.`,
      code,
    })(req, res);
  };
}

/**
 * A playlist of "Lesson n" videos, 100 a page, chained by `from-<n>` continuations, whose length
 * a test may change between lookups (`total()`), as it may its ends: set `firstVideo` or
 * `lastTitle` to edit item 1 or the last item in place. Its `answer` is for pagesFrom.
 */
export function lessonPlaylist(
  id: string,
  total: () => number,
  edit: (item: PlaylistItem) => PlaylistItem = (item) => item,
) {
  const ends: { firstVideo?: string; lastTitle?: string } = {};
  const item = (index: number): PlaylistItem =>
    edit({
      index,
      id: (index === 1 ? ends.firstVideo : undefined) ?? `vid${String(index).padStart(8, '0')}`,
      title: (index === total() ? ends.lastTitle : undefined) ?? `Lesson ${index}`,
      thumbnails: [],
      channelId: 'UCabcdefghijklmnopqrstuv',
      channelTitle: 'A course',
      viewsText: '1 view',
      publishedText: '1 day ago',
      duration: 60,
    });
  const pageAt = (from: number) => ({
    items: Array.from({ length: Math.min(100, total() - from) }, (_, i) => item(from + i + 1)),
    continuation: from + 100 < total() ? `from-${from + 100}` : null,
  });
  const firstPage = () => ({ info: { ...playlistInfo(id), totalItems: total() }, ...pageAt(0) });
  const answer = (url: URL) => {
    if (url.searchParams.get('id') !== id) return undefined;
    const continuation = url.searchParams.get('continuation');
    return continuation === null ? firstPage() : pageAt(Number(continuation.slice('from-'.length)));
  };
  return Object.assign(ends, { pageAt, firstPage, answer });
}

/** Waits until `release()` before answering with `then`: holds a request in flight. */
export function gate(then: Behaviour = validPage): {
  behaviour: Behaviour;
  release: () => void;
  arrived: Promise<void>;
} {
  let release!: () => void;
  let arrive!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  const arrived = new Promise<void>((resolve) => (arrive = resolve));
  return {
    behaviour: async (req, res) => {
      arrive();
      await released;
      await then(req, res);
    },
    release,
    arrived,
  };
}

/** Never answers (until the server closes). */
export const hang: Behaviour = () => {};

/** Cuts the connection without an answer: a network error. */
export const destroy: Behaviour = (req) => {
  req.socket.destroy();
};

/** `defaultBehaviour` answers whatever the script does not (valid pages, unless told). */
export async function startTestUpstream(
  defaultBehaviour: Behaviour = validPage,
): Promise<TestUpstream> {
  const requests: RecordedRequest[] = [];
  const script: Behaviour[] = [];
  let fallback: Behaviour = defaultBehaviour;
  const server = createServer((req, res) => {
    requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers });
    const behaviour = script.shift() ?? fallback;
    void behaviour(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    hits: () => requests.length,
    queue: (...behaviours) => script.push(...behaviours),
    setFallback: (behaviour) => (fallback = behaviour),
    reset() {
      requests.length = 0;
      script.length = 0;
      fallback = defaultBehaviour;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A pass-through in front of a real upstream that counts the requests reaching it. */
export function startCountingProxy(target: string): Promise<TestUpstream> {
  const targetUrl = new URL(target);
  return startTestUpstream(
    (req, res) =>
      new Promise<void>((resolve) => {
        const forwarded = httpRequest(
          {
            host: targetUrl.hostname,
            port: targetUrl.port,
            path: req.url,
            method: req.method,
            headers: req.headers,
          },
          (answer) => {
            res.writeHead(answer.statusCode ?? 502, answer.headers);
            answer.pipe(res);
            answer.on('end', resolve);
          },
        );
        forwarded.on('error', () => {
          res.destroy();
          resolve();
        });
        req.pipe(forwarded);
      }),
  );
}
