import { describe, expect, it } from 'vitest';
import { rawQueryOf, readQuery } from './query.ts';

describe('query strings', () => {
  it('end at a fragment, and are empty without a `?`', () => {
    expect(rawQueryOf('http://x/api/v1/playlist?id=PL1&continuation=a#b')).toBe(
      'id=PL1&continuation=a',
    );
    expect(rawQueryOf('http://x/api/v1/playlist?continuation=#&id=PL1')).toBe('continuation=');
    expect(rawQueryOf('http://x/api/v1/playlist')).toBe('');
  });

  it('keep `+` as itself and decode `%2B` to it, keeping what was sent', () => {
    const read = readQuery('continuation=a+b%2Bc&id=PL1', ['id', 'continuation']);
    expect(read).toEqual({
      ok: true,
      values: new Map([
        ['continuation', { raw: 'a+b%2Bc', value: 'a+b+c' }],
        ['id', { raw: 'PL1', value: 'PL1' }],
      ]),
    });
  });

  it('read a value that is not percent-encoding as null, for the route to refuse', () => {
    const read = readQuery('from=%ZZ', ['from', 'to']);
    expect(read.ok && read.values.get('from')).toEqual({ raw: '%ZZ', value: null });
  });

  it('refuse a parameter the route does not declare, or one given twice', () => {
    expect(readQuery('id=PL1&key=secret', ['id'])).toMatchObject({
      ok: false,
      code: 'unknown_parameter',
    });
    expect(readQuery('%ZZ=1', ['id'])).toMatchObject({ ok: false, code: 'unknown_parameter' });
    expect(readQuery('x', [])).toMatchObject({
      ok: false,
      code: 'unknown_parameter',
      detail: 'This takes no query parameters.',
    });
    expect(readQuery('to=3&to=4', ['from', 'to'])).toMatchObject({
      ok: false,
      code: 'repeated_parameter',
    });
    expect(readQuery('&&', [])).toEqual({ ok: true, values: new Map() });
  });
});
