import { createConnection, createServer, type Socket } from 'node:net';

// For tests only: a TCP forwarder on a loopback port that can be cut, to put one client out of
// reach of a server the others still reach (a network partition). Cut, it keeps its connections
// open but passes nothing either way, as a path that silently drops packets does, and takes new
// connections the same way; healed, it closes what it held (their byte streams are no longer
// whole) and forwards again, so clients reconnect.

export interface TcpProxy {
  port: number;
  cut(): void;
  heal(): void;
  close(): Promise<void>;
}

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  let cut = false;
  const pairs = new Set<{ inbound: Socket; outbound: Socket; held: boolean }>();

  const server = createServer((inbound) => {
    const outbound = createConnection(target);
    const pair = { inbound, outbound, held: cut };
    pairs.add(pair);
    const forward = (from: Socket, to: Socket) =>
      from.on('data', (chunk: Buffer) => {
        if (!pair.held) to.write(chunk);
      });
    forward(inbound, outbound);
    forward(outbound, inbound);
    const end = () => {
      pairs.delete(pair);
      inbound.destroy();
      outbound.destroy();
    };
    inbound.on('close', end).on('error', end);
    outbound.on('close', end).on('error', end);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');

  return {
    port: address.port,
    cut() {
      cut = true;
      for (const pair of pairs) pair.held = true;
    },
    heal() {
      cut = false;
      for (const pair of pairs) {
        if (!pair.held) continue;
        pair.inbound.destroy();
        pair.outbound.destroy();
      }
    },
    async close() {
      for (const { inbound, outbound } of pairs) {
        inbound.destroy();
        outbound.destroy();
      }
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
