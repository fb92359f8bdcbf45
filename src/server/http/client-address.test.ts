import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { requestClient } from './client-address.ts';

const from = (socket: string, forwardedFor?: string | string[]) =>
  ({
    headers: forwardedFor === undefined ? {} : { 'x-forwarded-for': forwardedFor },
    socket: { remoteAddress: socket },
  }) as unknown as IncomingMessage;

describe('the client of a request', () => {
  it('is the socket’s peer unless a proxy is trusted', () => {
    expect(requestClient(from('203.0.113.7', '198.51.100.1'), false)).toBe('203.0.113.7');
  });

  it('behind a trusted proxy, is the address the nearest proxy saw', () => {
    expect(requestClient(from('10.0.0.2', '192.0.2.1, 198.51.100.1'), true)).toBe('198.51.100.1');
    expect(requestClient(from('10.0.0.2', ['192.0.2.1', '2001:DB8::1']), true)).toBe('2001:db8::1');
  });

  it('a forwarded value that is not an IP address is not a client: the proxy is', () => {
    for (const forged of ['random-4711', 'unknown', '198.51.100.1:443', '', ' , ', '1.2.3.4.5'])
      expect(requestClient(from('10.0.0.2', `192.0.2.1, ${forged}`), true), forged).toBe(
        '10.0.0.2',
      );
  });
});
