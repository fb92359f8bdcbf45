import { describe, expect, it } from 'vitest';
import { screenClassOf } from './screen-class.ts';

const headers = (values: Record<string, string>) => (name: string) => values[name];

describe('screenClassOf', () => {
  it('takes the client hint when there is one, whatever the user agent says', () => {
    expect(screenClassOf(headers({ 'sec-ch-ua-mobile': '?1' })).screen).toBe('narrow');
    expect(
      screenClassOf(headers({ 'sec-ch-ua-mobile': '?0', 'user-agent': 'Mobile Safari' })),
    ).toEqual({ screen: 'wide', vary: ['Sec-CH-UA-Mobile'] });
  });

  it('falls back on the user agent, and then varies with it too', () => {
    const iphone =
      'Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.0 Mobile/15E148 Safari/604.1';
    expect(screenClassOf(headers({ 'user-agent': iphone }))).toEqual({
      screen: 'narrow',
      vary: ['Sec-CH-UA-Mobile', 'User-Agent'],
    });
    const firefox = 'Mozilla/5.0 (X11; Linux x86_64; rv:140.0) Gecko/20100101 Firefox/140.0';
    expect(screenClassOf(headers({ 'user-agent': firefox })).screen).toBe('wide');
  });

  it('reads a request with neither (a crawler, curl) as wide: every row it can have', () => {
    expect(screenClassOf(headers({})).screen).toBe('wide');
  });
});
