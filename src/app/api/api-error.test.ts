import { describe, expect, it } from 'vitest';
import { problem } from '../../shared/problem.ts';
import { describeProblem, failureSentence, formatWait, tryAgainIn } from '../lib/problem-text.ts';
import { ApiError, parseRetryAfter } from './api-error.ts';

const http = (status: number, code: Parameters<typeof problem>[0], retryAfter?: number) =>
  new ApiError('http', 'x', {
    status,
    problem: problem(code, 'detail', { status, retryAfter }),
    retryAfter: retryAfter ?? null,
  });

describe('parseRetryAfter', () => {
  it('reads seconds and HTTP dates', () => {
    expect(parseRetryAfter('12')).toBe(12);
    expect(parseRetryAfter(null)).toBeNull();
    expect(parseRetryAfter('soon')).toBeNull();
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(parseRetryAfter('Thu, 01 Jan 2026 00:00:30 GMT', now)).toBe(30);
  });
});

describe('describeProblem', () => {
  it('says not found without offering a retry', () => {
    const text = describeProblem(http(404, 'playlist_not_found'), 'playlist', 'PLx');
    expect(text).toMatchObject({ title: 'Playlist not found', canRetry: false, notFound: true });
    expect(http(404, 'playlist_not_found').isClientError).toBe(true);
  });

  it('gives the wait time when rate limited', () => {
    const text = describeProblem(http(429, 'upstream_rate_limited', 30), 'channel', 'UCx');
    expect(text).toMatchObject({ title: 'Too many requests', canRetry: true, retryAfter: 30 });
    // The view counts the wait down; a fixed number in the text would contradict it.
    expect(text.detail).not.toMatch(/\d/);
    expect(describeProblem(http(429, 'quota_exhausted', 600), 'playlist', 'PLx')).toMatchObject({
      title: 'Hourly quota used up',
      retryAfter: 600,
    });
    expect(describeProblem(http(429, 'rate_limited'), 'playlist', 'PLx').detail).toContain(
      'Wait a moment',
    );
    expect(describeProblem(http(429, 'share_exhausted', 1200), 'playlist', 'PLx')).toMatchObject({
      title: 'Your share of the hour is used up',
      canRetry: true,
      retryAfter: 1200,
    });
    expect(describeProblem(http(503, 'walks_busy', 8), 'playlist', 'PLx')).toMatchObject({
      title: 'The server is busy',
      retryAfter: 8,
    });
  });

  it('offers a retry for server trouble and network failures', () => {
    expect(describeProblem(http(503, 'upstream_unavailable'), 'playlist', 'PLx')).toMatchObject({
      canRetry: true,
    });
    expect(describeProblem(http(502, 'upstream_error'), 'playlist', 'PLx')).toMatchObject({
      canRetry: true,
    });
    expect(describeProblem(new ApiError('network', 'x'), 'playlist', 'PLx')).toMatchObject({
      title: 'No connection',
      canRetry: true,
    });
    expect(describeProblem(new ApiError('malformed', 'x'), 'playlist', 'PLx')).toMatchObject({
      canRetry: true,
    });
    expect(http(503, 'upstream_unavailable').isClientError).toBe(false);
  });

  it('refuses to retry bad IDs', () => {
    expect(describeProblem(http(400, 'invalid_id'), 'channel', 'nope')).toMatchObject({
      title: 'Not a channel ID',
      canRetry: false,
    });
  });

  it('writes waits in sensible units', () => {
    expect(formatWait(1)).toBe('1 second');
    expect(formatWait(90)).toBe('2 minutes');
    expect(formatWait(7200)).toBe('2 hours');
  });

  it('says a failed panel request in the server’s words, with the wait it asked for', () => {
    expect(failureSentence(http(503, 'upstream_unavailable'))).toBe('detail');
    expect(failureSentence(http(429, 'quota_exhausted', 90))).toBe(
      'detail Try again in 2 minutes.',
    );
    expect(failureSentence(new ApiError('network', 'Offline'))).toBe('Offline');
    expect(failureSentence(new Error('boom'))).toBe('Something went wrong.');
    expect(tryAgainIn(1)).toBe('Try again in 1 second.');
  });
});
