import type { MessageId } from '../../shared/i18n/message-id.ts';
import type { ProblemCode } from '../../shared/problem-codes.ts';
import { ApiError } from '../api/api-error.ts';
import type { Translation } from '../i18n/use-translation.ts';

// What the app says when a request fails (spec §2.2, §2.3): what happened, in words, whether
// trying again can help, and how long to wait when the server said. The one place these words
// are chosen: a list's own pages and the Whole list panel's requests alike. They are the
// reader's (problems.json), chosen by the problem's code; the server's own `detail` is English
// written for the API's readers, and is never shown.

type Subject = 'playlist' | 'channel';

/** What the texts need of the reader's language; `useTranslation()` gives both. */
export type ProblemWords = Pick<Translation, 't' | 'formatWait'>;

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

/** "Try again in 2 minutes.": the wait the server asked for, as a sentence. */
export function tryAgainIn(seconds: number, { t, formatWait }: ProblemWords): string {
  return t('problem.tryAgainIn', { wait: formatWait(seconds) });
}

/** A sentence, or two: for when the server said when to ask again, and for when it did not. */
type CodeSentence = MessageId | { said: MessageId; unsaid: MessageId };

const RATE_LIMITED: CodeSentence = {
  said: 'problem.rateLimited.detail',
  unsaid: 'problem.rateLimited.detailNoWait',
};

/** Each code's sentence where it needs no subject or ID: for requests that are not a list's page. */
const CODE_SENTENCES: Partial<Record<ProblemCode, CodeSentence>> = {
  playlist_not_found: 'problem.playlistNotFound.sentence',
  channel_not_found: 'problem.channelNotFound.sentence',
  not_found: 'problem.notFound.sentence',
  invalid_id: 'problem.invalidId.sentence',
  missing_id: 'problem.missingId.sentence',
  invalid_continuation: 'problem.listMovedOn.detail',
  invalid_range: 'problem.invalidRange.sentence',
  request_timeout: 'problem.requestTimeout.sentence',
  unauthorized: 'problem.accessRefused.detail',
  upstream_credentials_rejected: 'problem.accessRefused.detail',
  rate_limited: RATE_LIMITED,
  upstream_rate_limited: RATE_LIMITED,
  too_many_walks: 'problem.tooManyWalks.sentence',
  quota_exhausted: {
    said: 'problem.quotaExhausted.detail',
    unsaid: 'problem.quotaExhausted.detailLater',
  },
  share_exhausted: {
    said: 'problem.shareExhausted.detail',
    unsaid: 'problem.shareExhausted.detailLater',
  },
  walks_busy: 'problem.serverBusy.detail',
  shared_state_unavailable: 'problem.sharedStateUnavailable.sentence',
  upstream_error: 'problem.catalogueError.detail',
  upstream_bad_response: 'problem.catalogueUnreadable.detail',
  upstream_timeout: 'problem.catalogueSlow.detail',
  upstream_unavailable: 'problem.catalogueUnavailable.detail',
  internal_error: 'problem.serverError.sentence',
};

/** A problem's sentence by its code, else by its status; never the server's own words. */
function codeSentence(code: string | null, status: number | null, said: boolean): MessageId {
  // Own keys only: a code is the server's text, and "constructor" is no code of ours.
  const sentence =
    code !== null && Object.hasOwn(CODE_SENTENCES, code)
      ? CODE_SENTENCES[code as ProblemCode]
      : status === 429
        ? RATE_LIMITED
        : undefined;
  if (sentence !== undefined) {
    return typeof sentence === 'string' ? sentence : sentence[said ? 'said' : 'unsaid'];
  }
  if (status === 404) return 'problem.notFound.sentence';
  if (status !== null && status >= 500) return 'problem.serverError.sentence';
  if (status !== null && status >= 400) return 'problem.refused.detail';
  return 'problem.generic.sentence';
}

/** A sentence, followed by the wait the server asked for when it said. */
function withWait(sentence: string, wait: number | null, words: ProblemWords): string {
  if (wait === null) return sentence;
  return words.t('problem.withWait', { sentence, wait: words.formatWait(wait) });
}

/**
 * A problem the server reported other than as a failed request (a whole-list walk that stopped
 * early names its `code` and `retryAfter`), in one sentence with the wait it asked for.
 */
export function problemSentence(
  problem: { code: string; retryAfter?: number | null },
  words: ProblemWords,
): string {
  const wait = problem.retryAfter ?? null;
  return withWait(words.t(codeSentence(problem.code, null, wait !== null)), wait, words);
}

/**
 * A failed request that is not a list's page (what loading all costs, a total, a walk), in one
 * sentence chosen by its problem's code, with the wait the server asked for.
 */
export function failureSentence(error: unknown, words: ProblemWords): string {
  const { t } = words;
  if (!(error instanceof ApiError)) return t('problem.generic.sentence');
  if (error.kind === 'network') return t('problem.network.detail');
  if (error.kind === 'malformed') return t('problem.malformed.detail');
  const wait = error.retryAfter;
  return withWait(t(codeSentence(error.code, error.status, wait !== null)), wait, words);
}

export function describeProblem(
  error: unknown,
  subject: Subject,
  id: string,
  { t }: ProblemWords,
): ProblemText {
  const base = { canRetry: true, retryAfter: null, notFound: false };
  if (!(error instanceof ApiError)) {
    return {
      ...base,
      title: t('problem.generic.title'),
      detail: t('problem.generic.detail'),
    };
  }
  if (error.kind === 'network') {
    return { ...base, title: t('problem.network.title'), detail: t('problem.network.detail') };
  }
  if (error.kind === 'malformed') {
    return { ...base, title: t('problem.unreadable.title'), detail: t('problem.malformed.detail') };
  }
  const playlist = subject === 'playlist';
  const notFoundTitle = () =>
    t(playlist ? 'problem.playlistNotFound.title' : 'problem.channelNotFound.title');
  const wait = error.retryAfter;
  const said = wait !== null;
  switch (error.code) {
    case 'playlist_not_found':
    case 'channel_not_found':
    case 'not_found':
      return {
        ...base,
        canRetry: false,
        notFound: true,
        title: notFoundTitle(),
        detail: t(playlist ? 'problem.playlistNotFound.detail' : 'problem.channelNotFound.detail', {
          id,
        }),
      };
    case 'invalid_id':
    case 'missing_id':
      return {
        ...base,
        canRetry: false,
        notFound: true,
        title: t(playlist ? 'problem.invalidPlaylistId.title' : 'problem.invalidChannelId.title'),
        detail: t(
          playlist ? 'problem.invalidPlaylistId.detail' : 'problem.invalidChannelId.detail',
          { id },
        ),
      };
    case 'invalid_continuation':
      return {
        ...base,
        canRetry: false,
        canReload: true,
        title: t('problem.listMovedOn.title'),
        detail: t('problem.listMovedOn.detail'),
      };
    case 'quota_exhausted':
      return {
        ...base,
        retryAfter: wait,
        title: t('problem.quotaExhausted.title'),
        detail: t(said ? 'problem.quotaExhausted.detail' : 'problem.quotaExhausted.detailLater'),
      };
    case 'share_exhausted':
      return {
        ...base,
        retryAfter: wait,
        title: t('problem.shareExhausted.title'),
        detail: t(said ? 'problem.shareExhausted.detail' : 'problem.shareExhausted.detailLater'),
      };
    case 'walks_busy':
      return {
        ...base,
        retryAfter: wait,
        title: t('problem.serverBusy.title'),
        detail: t('problem.serverBusy.detail'),
      };
    case 'rate_limited':
    case 'upstream_rate_limited':
      return rateLimited(wait, t);
    case 'unauthorized':
    case 'upstream_credentials_rejected':
      return {
        ...base,
        canRetry: false,
        title: t('problem.accessRefused.title'),
        detail: t('problem.accessRefused.detail'),
      };
    case 'upstream_timeout':
      return {
        ...base,
        title: t('problem.catalogueSlow.title'),
        detail: t('problem.catalogueSlow.detail'),
      };
    case 'upstream_unavailable':
      return {
        ...base,
        retryAfter: wait,
        title: t('problem.catalogueUnavailable.title'),
        detail: t('problem.catalogueUnavailable.detail'),
      };
    case 'upstream_bad_response':
      return {
        ...base,
        title: t('problem.unreadable.title'),
        detail: t('problem.catalogueUnreadable.detail'),
      };
    default:
      if (error.status === 429) return rateLimited(wait, t);
      if (error.status === 404) {
        return {
          ...base,
          canRetry: false,
          notFound: true,
          title: notFoundTitle(),
          detail: t('problem.nothingFound.detail', { id }),
        };
      }
      if (error.status !== null && error.status < 500) {
        return {
          ...base,
          canRetry: false,
          title: t('problem.refused.title'),
          detail: t(codeSentence(error.code, error.status, said)),
        };
      }
      return {
        ...base,
        retryAfter: wait,
        title: t('problem.catalogueError.title'),
        detail: t('problem.catalogueError.detail'),
      };
  }
}

function rateLimited(wait: number | null, t: ProblemWords['t']): ProblemText {
  return {
    canRetry: true,
    notFound: false,
    retryAfter: wait,
    title: t('problem.rateLimited.title'),
    detail: t(wait !== null ? 'problem.rateLimited.detail' : 'problem.rateLimited.detailNoWait'),
  };
}
