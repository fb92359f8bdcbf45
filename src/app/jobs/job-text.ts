import type { MessageId } from '../../shared/i18n/message-id.ts';
import { pseudoText } from '../../shared/i18n/pseudo-text.ts';
import type { Job, JobRequest } from '../../shared/jobs.ts';
import { DEFAULT_LOCALE, PSEUDO_LOCALE, type CatalogLocale } from '../../shared/locales.ts';
import type { Translation } from '../i18n/use-translation.ts';
import { problemSentence } from '../lib/problem-text.ts';

// What a job says about itself, in the reader's words: what it is, what list, where it is
// (docs/jobs.md: states, progress, estimate), and the times it names, as the reader's locale
// writes a time of day. Pure functions of the job and a clock, so they are tested as such.

type Words = Pick<Translation, 't' | 'formatWait' | 'locale'>;

const KINDS: Record<'csv' | 'json' | 'txt' | 'summary' | 'load-all', MessageId> = {
  csv: 'jobs.kind.csv',
  json: 'jobs.kind.json',
  txt: 'jobs.kind.txt',
  summary: 'jobs.kind.summary',
  'load-all': 'jobs.kind.loadAll',
};

/** "Export (CSV)", "Summary". */
export function kindText(request: JobRequest, { t }: Pick<Translation, 't'>): string {
  return t(KINDS[request.kind === 'export' ? (request.format ?? 'csv') : request.kind]);
}

/** "Videos of Endless Archive": the list, by its title when known, else its ID. */
export function listText(
  request: JobRequest,
  title: string | null,
  { t }: Pick<Translation, 't'>,
): string {
  const name = title || request.id;
  switch (request.list) {
    case 'playlist':
      return t('jobs.list.playlist', { name });
    case 'channel-videos':
      return t('jobs.list.channelVideos', { name });
    case 'channel-playlists':
      return t('jobs.list.channelPlaylists', { name });
  }
}

const clocks = new Map<string, Intl.DateTimeFormat>();
function clockFormat(locale: CatalogLocale, withDay: boolean): Intl.DateTimeFormat {
  const key = `${locale} ${withDay}`;
  let format = clocks.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(locale === PSEUDO_LOCALE ? DEFAULT_LOCALE : locale, {
      hour: 'numeric',
      minute: '2-digit',
      ...(withDay ? { weekday: 'short' } : {}),
    });
    clocks.set(key, format);
  }
  return format;
}

/**
 * A time of day as the locale writes hours and minutes ("3:00 PM", "15:00"), with the weekday
 * when it is not today (a window of a day, or a wait past midnight).
 */
export function clockTime(iso: string, locale: CatalogLocale, now: number): string {
  const at = new Date(iso);
  const today = new Date(now).toDateString() === at.toDateString();
  // Kept on one line ("9:10 PM" never split at the end of one).
  const text = clockFormat(locale, !today).format(at).replaceAll(' ', '\u00a0');
  // The pseudo-locale's own words are accented; so is what Intl writes in its place.
  return locale === PSEUDO_LOCALE ? pseudoText(text) : text;
}

/** How far the job is, 0 to 100, once the list's length is known. */
export function percentOf(job: Job): number | null {
  const { items, totalItems } = job.progress;
  if (job.state === 'done') return 100;
  if (totalItems === null) return null;
  return Math.min(100, Math.floor((items / Math.max(1, totalItems)) * 100));
}

/** Where the job is, as a sentence: running, waiting until when, why it failed. */
export function stateText(job: Job, words: Words, now: number): string {
  const { t } = words;
  switch (job.state) {
    case 'queued':
      return t('jobs.state.queued');
    case 'running':
      return t('jobs.state.running');
    case 'waiting':
      return job.waitingUntil === null
        ? t('jobs.state.running')
        : t('jobs.state.waiting', { time: clockTime(job.waitingUntil, words.locale, now) });
    case 'done':
      return t('jobs.state.done');
    case 'cancelled':
      return t('jobs.state.cancelled');
    case 'failed':
      // The reader's sentence for the problem's code (lib/problem-text.ts), never the server's
      // English `detail`.
      return t('jobs.state.failed', {
        reason: problemSentence(job.problem ?? { code: 'internal_error' }, words),
      });
  }
}

/** Items so far, and of how many with the percentage once the length is known. */
export function progressText(job: Job, { t }: Pick<Translation, 't'>): string {
  const { items, totalItems } = job.progress;
  if (job.state === 'done') return t('jobs.result.items', { items });
  const percent = percentOf(job);
  return totalItems === null || percent === null
    ? t('jobs.progress.items', { items })
    : t('jobs.progress.itemsOfTotal', { items, total: totalItems, fraction: percent / 100 });
}

/** What is left: the time and when it ends, or the pages, as far as the server knows. */
export function estimateText(job: Job, words: Words, now: number): string | null {
  const { estimate } = job;
  if (estimate === null) return null;
  const { t, formatWait, locale } = words;
  if (estimate.secondsLeft !== null) {
    const wait = formatWait(estimate.secondsLeft);
    return estimate.endsAt !== null
      ? t('jobs.estimate.ends', { wait, time: clockTime(estimate.endsAt, locale, now) })
      : t('jobs.estimate.left', { wait });
  }
  return estimate.pagesLeft !== null
    ? t('jobs.estimate.pages', { pages: estimate.pagesLeft })
    : null;
}

const sizes = new Map<string, Intl.NumberFormat>();
/** A file's size in the locale's units, from kilobytes: "13 MB", "13 Mo", "13 МБ", "0.5 kB". */
export function sizeText(bytes: number, locale: CatalogLocale): string {
  const units = ['kilobyte', 'megabyte', 'gigabyte'] as const;
  let value = bytes / 1000;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit++;
  }
  const tag = locale === PSEUDO_LOCALE ? DEFAULT_LOCALE : locale;
  // One decimal below ten ("2.5 MB"), none above ("13 MB").
  const digits = value < 10 ? 1 : 0;
  const key = `${tag} ${units[unit]} ${digits}`;
  let format = sizes.get(key);
  if (!format) {
    format = new Intl.NumberFormat(tag, {
      style: 'unit',
      unit: units[unit],
      unitDisplay: 'short',
      maximumFractionDigits: digits,
    });
    sizes.set(key, format);
  }
  const text = format.format(value);
  return locale === PSEUDO_LOCALE ? pseudoText(text) : text;
}

/** "Export (CSV) done" for a notification, and the document title that says it. */
export function endedText(
  job: Job,
  kind: string,
  { t }: Pick<Translation, 't'>,
): { notice: string; title: (pageTitle: string) => string } | null {
  if (job.state === 'done')
    return {
      notice: t('jobs.ended.done', { kind }),
      title: (title) => t('jobs.ended.titleDone', { kind, title }),
    };
  if (job.state === 'failed')
    return {
      notice: t('jobs.ended.failed', { kind }),
      title: (title) => t('jobs.ended.titleFailed', { kind, title }),
    };
  return null;
}
