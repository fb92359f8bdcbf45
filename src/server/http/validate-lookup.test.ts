import { describe, expect, it } from 'vitest';
import { CONTINUATION_MAX_LENGTH } from '../../shared/id-patterns.ts';
import { lookupFromQuery } from './validate-lookup.ts';

const PLAYLIST = 'PLcatalogueDemoPlaylist0101items00';
const CHANNEL = 'UCcatalogueDemoChannel01';

describe('lookup validation: checked before any quota is spent', () => {
  it('accepts an ID of the endpoint’s shape, with or without a continuation', () => {
    expect(lookupFromQuery('playlist', `id=${PLAYLIST}`)).toEqual({
      ok: true,
      lookup: { endpoint: 'playlist', id: PLAYLIST, continuation: undefined },
    });
    expect(lookupFromQuery('channel-videos', `continuation=abc&id=${CHANNEL}`)).toMatchObject({
      ok: true,
      lookup: { id: CHANNEL, continuation: 'abc' },
    });
  });

  it('reads a continuation byte for byte: %XX decoded, a literal + kept', () => {
    const opaque = 'Eg+/Zm9v=%3D&x';
    const encoded = encodeURIComponent(opaque);
    expect(lookupFromQuery('playlist', `id=${PLAYLIST}&continuation=${encoded}`)).toMatchObject({
      lookup: { continuation: opaque },
    });
    expect(lookupFromQuery('playlist', `id=${PLAYLIST}&continuation=a+b`)).toMatchObject({
      lookup: { continuation: 'a+b' },
    });
    // URLSearchParams' own encoding (space as +) is what the app sends; + is %2B there.
    const viaSearchParams = new URLSearchParams({ id: PLAYLIST, continuation: opaque }).toString();
    expect(lookupFromQuery('playlist', viaSearchParams)).toMatchObject({
      lookup: { continuation: opaque },
    });
  });

  it('treats an empty continuation as the first page', () => {
    expect(lookupFromQuery('playlist', `id=${PLAYLIST}&continuation=`)).toMatchObject({
      lookup: { continuation: undefined },
    });
  });

  const refused = [
    ['playlist', '', 'missing_id'],
    ['playlist', 'id=', 'missing_id'],
    ['playlist', 'continuation=abc', 'missing_id'],
    // Parameters are judged in the schema's order: a missing `id` before a bad continuation.
    ['playlist', 'continuation=%ZZ', 'missing_id'],
    ['playlist', 'id=pl-lower-case-playlist', 'invalid_id'],
    ['channel-videos', `id=${PLAYLIST}`, 'invalid_id'],
    ['channel-playlists', 'id=UCshort', 'invalid_id'],
    ['playlist', 'id=PL%ZZbad', 'invalid_id'],
    ['playlist', `id=${PLAYLIST}&id=${PLAYLIST}`, 'repeated_parameter'],
    ['playlist', `id=${PLAYLIST}&continuation=a&continuation=b`, 'repeated_parameter'],
    ['playlist', `id=${PLAYLIST}&key=secret`, 'unknown_parameter'],
    ['playlist', `id=${PLAYLIST}&callback`, 'unknown_parameter'],
    [
      'playlist',
      `id=${PLAYLIST}&continuation=${'a'.repeat(CONTINUATION_MAX_LENGTH + 1)}`,
      'invalid_continuation',
    ],
    ['playlist', `id=${PLAYLIST}&continuation=has%20space`, 'invalid_continuation'],
    ['playlist', `id=${PLAYLIST}&continuation=%E2%82%AC`, 'invalid_continuation'],
    ['playlist', `id=${PLAYLIST}&continuation=%0A`, 'invalid_continuation'],
    ['playlist', `id=${PLAYLIST}&continuation=100%`, 'invalid_continuation'],
  ] as const;
  // A loop rather than it.each, whose titles cannot shorten the long query.
  for (const [endpoint, query, code] of refused) {
    const shown = query.length > 60 ? `${query.slice(0, 60)}…` : query;
    it(`${endpoint} ?${shown} → ${code}`, () => {
      expect(lookupFromQuery(endpoint, query)).toMatchObject({ ok: false, code });
    });
  }

  it('says which parameter is refused, and why', () => {
    expect(lookupFromQuery('playlist', 'continuation=abc')).toMatchObject({
      detail: 'The `id` parameter is required.',
    });
    expect(lookupFromQuery('playlist', 'id=PL%ZZ')).toMatchObject({
      detail: 'The `id` parameter is not acceptable: not valid percent-encoding.',
    });
    expect(lookupFromQuery('channel-videos', `id=${PLAYLIST}`)).toMatchObject({
      detail: 'The `id` parameter is not acceptable: not a channel ID.',
    });
  });

  it('accepts a continuation of exactly the size bound', () => {
    const longest = 'a'.repeat(CONTINUATION_MAX_LENGTH);
    expect(lookupFromQuery('playlist', `id=${PLAYLIST}&continuation=${longest}`).ok).toBe(true);
  });
});
