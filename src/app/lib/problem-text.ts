import { ApiError } from '../api/api-error.ts';

// What the app says when a request fails (spec §2.2, §2.3): what happened, in words, whether
// trying again can help, and how long to wait when the server said. The one place these words
// are written: a list's own pages and the Whole list panel's requests alike.

type Subject = 'playlist' | 'channel';

export interface ProblemText {
  title: string;
  detail: string;
  /** Retrying can help (server trouble, rate limits, network). */
  canRetry: boolean;
  /** Seconds the server asked us to wait, when it said; the view counts them down. */
  retryAfter: number | null;
  /** The thing does not exist, or the ID cannot be one. */
  notFound: boolean;
  /** Starting the list over can help (its position is no longer accepted). */
  canReload?: boolean;
}

export function formatWait(seconds: number): string {
  if (seconds < 60) return `${seconds} second${seconds === 1 ? '' : 's'}`;
  const minutes = Math.ceil(seconds / 60);
  if (minutes < 60) return `${minutes} minute${minutes === 1 ? '' : 's'}`;
  const hours = Math.ceil(minutes / 60);
  return `${hours} hour${hours === 1 ? '' : 's'}`;
}

/** "Try again in 2 minutes.": the wait the server asked for, as a sentence. */
export function tryAgainIn(seconds: number): string {
  return `Try again in ${formatWait(seconds)}.`;
}

/**
 * A failed request that is not a list's page (what loading all costs, a total, a walk), in one
 * sentence: the server's own words for it, which name what failed better than a code can here.
 */
export function failureSentence(error: unknown): string {
  if (!(error instanceof ApiError)) return 'Something went wrong.';
  const detail = error.problem?.detail ?? error.message;
  return error.retryAfter ? `${detail} ${tryAgainIn(error.retryAfter)}` : detail;
}

export function describeProblem(error: unknown, subject: Subject, id: string): ProblemText {
  const base = { canRetry: true, retryAfter: null, notFound: false };
  if (!(error instanceof ApiError)) {
    return {
      ...base,
      title: 'Something went wrong',
      detail: 'The explorer could not load this list.',
    };
  }
  if (error.kind === 'network') {
    return {
      ...base,
      title: 'No connection',
      detail: 'The explorer server could not be reached. Check your connection and try again.',
    };
  }
  if (error.kind === 'malformed') {
    return {
      ...base,
      title: 'Unreadable answer',
      detail: 'The server sent an answer the explorer could not read.',
    };
  }
  const noun = subject === 'playlist' ? 'playlist' : 'channel';
  const wait = error.retryAfter;
  switch (error.code) {
    case 'playlist_not_found':
    case 'channel_not_found':
    case 'not_found':
      return {
        ...base,
        canRetry: false,
        notFound: true,
        title: `${capitalize(noun)} not found`,
        detail: `No public ${noun} has the ID ${id}. It may be private or deleted, or the ID may be mistyped.`,
      };
    case 'invalid_id':
    case 'missing_id':
      return {
        ...base,
        canRetry: false,
        notFound: true,
        title: `Not a ${noun} ID`,
        detail: `“${id}” is not a valid ${noun} ID.`,
      };
    case 'invalid_continuation':
      return {
        ...base,
        canRetry: false,
        canReload: true,
        title: 'The list moved on',
        detail:
          'The catalogue no longer accepts this position in the list. Reload the list to start again.',
      };
    case 'quota_exhausted':
      return {
        ...base,
        retryAfter: wait,
        title: 'Hourly quota used up',
        detail: `The explorer has used its hourly allowance of catalogue requests.${wait !== null ? '' : ' Try again later.'}`,
      };
    case 'share_exhausted':
      return {
        ...base,
        retryAfter: wait,
        title: 'Your share of the hour is used up',
        detail: `Each reader may spend a part of the explorer’s hourly catalogue requests, and yours is spent.${wait !== null ? '' : ' Try again later.'}`,
      };
    case 'walks_busy':
      return {
        ...base,
        retryAfter: wait,
        title: 'The server is busy',
        detail: 'The server is reading as many whole lists as it may at once.',
      };
    case 'rate_limited':
    case 'upstream_rate_limited':
      return rateLimited(wait);
    case 'unauthorized':
    case 'upstream_credentials_rejected':
      return {
        ...base,
        canRetry: false,
        title: 'Catalogue access refused',
        detail:
          'The catalogue refused the explorer’s credentials. The explorer’s operator needs to fix its configuration.',
      };
    case 'upstream_timeout':
      return {
        ...base,
        title: 'The catalogue is slow',
        detail: 'The catalogue took too long to answer.',
      };
    case 'upstream_unavailable':
      return {
        ...base,
        retryAfter: wait,
        title: 'Catalogue unavailable',
        detail: 'The catalogue cannot be reached right now.',
      };
    case 'upstream_bad_response':
      return {
        ...base,
        title: 'Unreadable answer',
        detail: 'The catalogue sent an answer the explorer could not read.',
      };
    default:
      if (error.status === 429) return rateLimited(wait);
      if (error.status === 404) {
        return {
          ...base,
          canRetry: false,
          notFound: true,
          title: `${capitalize(noun)} not found`,
          detail: `Nothing was found for ${id}.`,
        };
      }
      if (error.status !== null && error.status < 500) {
        return { ...base, canRetry: false, title: 'Request refused', detail: error.message };
      }
      return {
        ...base,
        retryAfter: wait,
        title: 'Catalogue error',
        detail: 'The catalogue failed to answer this request.',
      };
  }
}

function rateLimited(wait: number | null): ProblemText {
  return {
    canRetry: true,
    notFound: false,
    retryAfter: wait,
    title: 'Too many requests',
    detail: `The catalogue is limiting requests.${wait !== null ? '' : ' Wait a moment and try again.'}`,
  };
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
