import { createServer } from 'node:net';

// For tests and benchmarks only: a loopback port nobody listens on right now, for a process
// that is told its port rather than choosing one.
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}
