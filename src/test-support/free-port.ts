import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

// For tests and benchmarks only: a loopback port nobody listens on right now, for a process
// that is told its port rather than choosing one. Between this check and that process's own
// listen, the port is free for anyone to take: a port from the ephemeral range, where the
// kernel picks the ports of every `listen(0)` and outgoing connection on the machine, is taken
// now and then on a busy machine. So the port is drawn at random from below that range, where
// only a process that names its port can land.

/** Where the kernel's ephemeral ports start (Linux); its default elsewhere. */
function ephemeralStart(): number {
  try {
    const first = Number(
      readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').split(/\s+/)[0],
    );
    return Number.isInteger(first) && first > 1024 ? first : 32_768;
  } catch {
    return 32_768;
  }
}

const LOWEST = 10_000;

function listenable(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });
}

export async function freePort(): Promise<number> {
  const highest = Math.max(LOWEST + 1_000, ephemeralStart()) - 1;
  for (let attempt = 0; attempt < 100; attempt++) {
    const port = LOWEST + Math.floor(Math.random() * (highest - LOWEST + 1));
    if (await listenable(port)) return port;
  }
  throw new Error(`no free loopback port between ${LOWEST} and ${highest}`);
}
