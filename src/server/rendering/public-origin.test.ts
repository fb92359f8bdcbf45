import { describe, expect, it } from 'vitest';
import { readServerConfig } from '../config.ts';
import { plausibleHost, publicOrigin } from './public-origin.ts';

// Where the absolute URLs of a page point: PUBLIC_URL first; else the request's Host; the
// forwarded headers only behind a proxy the operator trusts; and nothing that is not a host.

const request = (headers: Record<string, string>, url = 'http://10.0.0.5:8080/playlist/x') =>
  new Request(url, { headers });

const FORWARDED = {
  host: 'internal:8080',
  'x-forwarded-host': 'explorer.example.com',
  'x-forwarded-proto': 'https',
};

describe('the public origin', () => {
  it('is PUBLIC_URL when configured, whatever the request says', () => {
    const { publicUrl } = readServerConfig({ PUBLIC_URL: 'https://Explorer.Example.com/' });
    expect(publicUrl).toBe('https://explorer.example.com');
    for (const trustProxy of [false, true]) {
      expect(publicOrigin(request(FORWARDED), { publicUrl, trustProxy })).toBe(
        'https://explorer.example.com',
      );
      expect(publicOrigin(request({ host: 'evil.example' }), { publicUrl, trustProxy })).toBe(
        'https://explorer.example.com',
      );
    }
  });

  it('is the Host header otherwise, with the request’s scheme; a default port is dropped', () => {
    const options = { trustProxy: false };
    expect(publicOrigin(request({ host: 'explorer.example.com:8443' }), options)).toBe(
      'http://explorer.example.com:8443',
    );
    expect(publicOrigin(request({ host: 'EXPLORER.example.com:80' }), options)).toBe(
      'http://explorer.example.com',
    );
    expect(publicOrigin(request({ host: '[::1]:8080' }), options)).toBe('http://[::1]:8080');
    expect(
      publicOrigin(request({ host: 'explorer.example.com' }, 'https://x/playlist'), options),
    ).toBe('https://explorer.example.com');
  });

  it('ignores X-Forwarded-Host and -Proto unless TRUST_PROXY is set', () => {
    expect(publicOrigin(request(FORWARDED), { trustProxy: false })).toBe('http://internal:8080');
    expect(publicOrigin(request(FORWARDED), { trustProxy: true })).toBe(
      'https://explorer.example.com',
    );
  });

  it('behind a trusted proxy, takes the nearest proxy’s value, and a bad one not at all', () => {
    const trustProxy = true;
    expect(
      publicOrigin(
        request({
          host: 'internal',
          'x-forwarded-host': 'spoofed.example, explorer.example.com',
          'x-forwarded-proto': 'http, https',
        }),
        { trustProxy },
      ),
    ).toBe('https://explorer.example.com');
    // An implausible forwarded host or scheme: the Host header and the request's own scheme.
    expect(
      publicOrigin(
        request({
          host: 'internal:8080',
          'x-forwarded-host': 'a"><script>',
          'x-forwarded-proto': 'javascript',
        }),
        { trustProxy },
      ),
    ).toBe('http://internal:8080');
  });

  it.each([
    'evil.example"><script>alert(1)</script>',
    "evil.example'onload=x",
    'a b.example',
    'user@evil.example',
    'evil.example/path',
    'evil.example:99999',
    'evil.example:0',
    '',
    'x'.repeat(300),
    '-leading-dash.example',
    '999.999.999.999',
  ])('never echoes an implausible Host (%j): a safe default instead', (host) => {
    const origin = publicOrigin(request({ host }), { trustProxy: false });
    expect(origin).toBe('http://localhost');
  });

  it('reads plausible hosts: names, IPv4, bracketed IPv6, with a port', () => {
    for (const host of ['localhost', 'a.b-c.example', 'my_service:8080', '127.0.0.1:1', '[::1]'])
      expect(plausibleHost(host)).toBe(host);
    expect(plausibleHost(' Example.COM ')).toBe('example.com');
    expect(plausibleHost(null)).toBeNull();
  });
});
