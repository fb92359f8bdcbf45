import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';

// A pass-through in front of the catalogue that counts the requests reaching it: the
// explorer's upstream calls, seen from the outside.

export async function startCountingUpstream(target: string) {
  const targetUrl = new URL(target);
  let count = 0;
  const server = createServer((req, res) => {
    count++;
    const upstream = request(
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
      },
    );
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    count: () => count,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
