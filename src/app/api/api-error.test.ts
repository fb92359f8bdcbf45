import { setupI18n } from '@lingui/core';
import { describe, expect, it } from 'vitest';
import { compileCatalog } from '../../shared/i18n/catalog-files.ts';
import { problem } from '../../shared/problem.ts';
import { formatsFor } from '../lib/format.ts';
import {
  describeProblem,
  failureSentence,
  problemSentence,
  tryAgainIn,
  type ProblemWords,
} from '../lib/problem-text.ts';
import { ApiError } from './api-error.ts';

// The texts as an English reader sees them, and as a German one does.
function wordsIn(locale: 'en' | 'de'): ProblemWords {
  const i18n = setupI18n({ locale, messages: { [locale]: compileCatalog(locale) } });
  return { t: i18n.t, formatWait: formatsFor(locale).formatWait };
}
const en = wordsIn('en');

const http = (status: number, code: Parameters<typeof problem>[0], retryAfter?: number) =>
  new ApiError('http', 'x', {
    status,
    problem: problem(code, 'detail', { status, retryAfter }),
    retryAfter: retryAfter ?? null,
  });

describe('describeProblem', () => {
  it('says not found without offering a retry', () => {
    const text = describeProblem(http(404, 'playlist_not_found'), 'playlist', 'PLx', en);
    expect(text).toMatchObject({ title: 'Playlist not found', canRetry: false, notFound: true });
    expect(http(404, 'playlist_not_found').isClientError).toBe(true);
  });

  it('gives the wait time when rate limited', () => {
    const text = describeProblem(http(429, 'upstream_rate_limited', 30), 'channel', 'UCx', en);
    expect(text).toMatchObject({ title: 'Too many requests', canRetry: true, retryAfter: 30 });
    // The view counts the wait down; a fixed number in the text would contradict it.
    expect(text.detail).not.toMatch(/\d/);
    expect(describeProblem(http(429, 'quota_exhausted', 600), 'playlist', 'PLx', en)).toMatchObject(
      {
        title: 'Hourly quota used up',
        retryAfter: 600,
      },
    );
    expect(describeProblem(http(429, 'rate_limited'), 'playlist', 'PLx', en).detail).toContain(
      'Wait a moment',
    );
    expect(
      describeProblem(http(429, 'share_exhausted', 1200), 'playlist', 'PLx', en),
    ).toMatchObject({
      title: 'Your share of the quota is used up',
      canRetry: true,
      retryAfter: 1200,
    });
    expect(describeProblem(http(503, 'walks_busy', 8), 'playlist', 'PLx', en)).toMatchObject({
      title: 'The server is busy',
      retryAfter: 8,
    });
  });

  it('offers a retry for server trouble and network failures', () => {
    expect(describeProblem(http(503, 'upstream_unavailable'), 'playlist', 'PLx', en)).toMatchObject(
      {
        canRetry: true,
      },
    );
    expect(describeProblem(http(502, 'upstream_error'), 'playlist', 'PLx', en)).toMatchObject({
      canRetry: true,
    });
    expect(describeProblem(new ApiError('network', 'x'), 'playlist', 'PLx', en)).toMatchObject({
      title: 'No connection',
      canRetry: true,
    });
    expect(describeProblem(new ApiError('malformed', 'x'), 'playlist', 'PLx', en)).toMatchObject({
      canRetry: true,
    });
    expect(http(503, 'upstream_unavailable').isClientError).toBe(false);
  });

  it('refuses to retry bad IDs', () => {
    expect(describeProblem(http(400, 'invalid_id'), 'channel', 'nope', en)).toMatchObject({
      title: 'Not a channel ID',
      canRetry: false,
    });
  });

  it('says a failed panel request by its code, with the wait it asked for, never the server’s words', () => {
    expect(failureSentence(http(503, 'upstream_unavailable'), en)).toBe(
      'The catalogue cannot be reached right now.',
    );
    expect(failureSentence(http(429, 'quota_exhausted', 90), en)).toBe(
      'The explorer has used its current allowance of catalogue requests. Try again in 2 minutes.',
    );
    expect(failureSentence(http(429, 'quota_exhausted'), en)).toMatch(/Try again later\.$/);
    expect(failureSentence(http(400, 'invalid_range'), en)).toMatch(/^The range must be/);
    // A code this app does not know is said by its status.
    const unknown = new ApiError('http', 'x', {
      status: 503,
      problem: { ...problem('internal_error', 'detail'), status: 503, code: 'brand_new' },
    });
    expect(failureSentence(unknown, en)).toBe('The server failed to answer this request.');
    expect(failureSentence(new ApiError('network', 'Offline'), en)).toBe(
      'The explorer server could not be reached. Check your connection and try again.',
    );
    expect(failureSentence(new Error('boom'), en)).toBe('Something went wrong.');
    for (const code of [
      'upstream_unavailable',
      'walks_busy',
      'invalid_id',
      'bad_request',
    ] as const) {
      expect(failureSentence(http(400, code, 5), en)).not.toContain('detail');
    }
    expect(tryAgainIn(1, en)).toBe('Try again in 1 second.');
  });

  it('says a walk’s stop by its code', () => {
    const stop = { code: 'share_exhausted', detail: 'detail', retryAfter: 3600 };
    expect(problemSentence(stop, en)).toBe(
      'Each reader may spend a part of the explorer’s allowance of catalogue requests, and yours is spent. Try again in 1 hour.',
    );
    expect(problemSentence({ code: 'constructor' }, en)).toBe('Something went wrong.');
  });

  it('speaks the reader’s language', () => {
    const de = wordsIn('de');
    // The German catalog may not be written yet: its words, else English's, but a German wait.
    expect(tryAgainIn(120, de)).toContain('2 Minuten');
    expect(describeProblem(http(404, 'channel_not_found'), 'channel', 'UCx', de).detail).toContain(
      'UCx',
    );
  });
});
