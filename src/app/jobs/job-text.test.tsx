import { setupI18n } from '@lingui/core';
import { I18nProvider } from '@lingui/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { compileCatalog } from '../../shared/i18n/catalog-files.ts';
import type { Job } from '../../shared/jobs.ts';
import { PSEUDO_LOCALE, type CatalogLocale } from '../../shared/locales.ts';
import { ApiError } from '../api/api-error.ts';
import { formatsFor } from '../lib/format.ts';
import { jobKey, nextPoll } from './job-api.ts';
import { JobCard } from './job-card.tsx';
import type { StoredJob } from './job-list.ts';
import {
  clockTime,
  estimateText,
  kindText,
  listText,
  progressText,
  sizeText,
  stateText,
} from './job-text.ts';

// What a job says about itself, as the reader reads it (docs/jobs.md: states, progress,
// estimate): the wait for quota as a time of day in the reader's locale, items and the
// percentage once the length is known, the time left; when it is read again; and a job's card
// with no word of its own outside the catalog.

const ID = 'AAAAAAAAAAAAAAAAAAAAAA';
const NOW = Date.parse('2026-11-27T12:00:00Z');

function job(overrides: Partial<Job> = {}): Job {
  return {
    id: ID,
    request: {
      list: 'channel-videos',
      id: 'UCcatalogueDemoChannel03',
      kind: 'export',
      format: 'txt',
    },
    state: 'running',
    createdAt: '2026-11-27T11:50:00.000Z',
    updatedAt: '2026-11-27T11:59:59.000Z',
    progress: { pages: 50, items: 1500, lookups: 48, totalItems: null },
    waitingUntil: null,
    estimate: null,
    problem: null,
    result: null,
    ...overrides,
  };
}

function words(locale: CatalogLocale) {
  const i18n = setupI18n({ locale, messages: { [locale]: compileCatalog(locale) } });
  return { t: i18n.t, locale, ...formatsFor(locale) };
}

/** A time of day as the locale's own Intl writes it (the machine's time zone is the reader's). */
const clock = (iso: string, locale: string) =>
  new Intl.DateTimeFormat(locale, { hour: 'numeric', minute: '2-digit' })
    .format(new Date(iso))
    .replaceAll(' ', '\u00a0');

describe('a job’s words', () => {
  const en = words('en');

  it('say what it is and on which list', () => {
    expect(kindText(job().request, en)).toBe('Export (text)');
    expect(kindText({ ...job().request, kind: 'summary', format: undefined }, en)).toBe('Summary');
    expect(listText(job().request, 'Endless Archive', en)).toBe('Videos of Endless Archive');
    expect(listText({ ...job().request, list: 'playlist', id: 'PLx' }, null, en)).toBe(
      'Playlist PLx',
    );
  });

  it('say until when it waits for quota, as the reader’s locale writes the time', () => {
    const until = '2026-11-27T12:05:00.000Z';
    const waiting = job({ state: 'waiting', waitingUntil: until });
    expect(stateText(waiting, en, NOW)).toBe(`Waiting for quota until ${clock(until, 'en')}`);
    expect(stateText(waiting, words('de'), NOW)).toBe(
      `Wartet auf Kontingent bis ${clock(until, 'de')}`,
    );
    // Hours and minutes: 3:05 PM in English, 15:05 in German.
    expect(clockTime(until, 'en', NOW)).toMatch(/^\d{1,2}:05\s[AP]M$/);
    expect(clockTime(until, 'de', NOW)).toMatch(/^\d{2}:05$/);
    // Another day: its weekday too.
    expect(clockTime('2026-11-29T12:05:00.000Z', 'en', NOW)).toMatch(/^[A-Z][a-z]{2},?\s\d/);
  });

  it('count the items, and give the percentage once the length is known', () => {
    expect(progressText(job(), en)).toBe('1,500 items so far');
    const known = job({ progress: { pages: 15, items: 1500, lookups: 15, totalItems: 5000 } });
    expect(progressText(known, en)).toBe('1,500 of 5,000 items · 30%');
    expect(progressText(job({ state: 'done' }), en)).toBe('1,500 items');
  });

  it('say the time left and when it ends, or else the pages left', () => {
    const endsAt = '2026-11-27T12:03:00.000Z';
    const timed = job({ estimate: { pagesLeft: 35, secondsLeft: 180, endsAt } });
    expect(estimateText(timed, en, NOW)).toBe(
      `About 3 minutes left, ending around ${clock(endsAt, 'en')}`,
    );
    const pages = job({ estimate: { pagesLeft: 35, secondsLeft: null, endsAt: null } });
    expect(estimateText(pages, en, NOW)).toBe('35 pages left');
    expect(estimateText(job(), en, NOW)).toBeNull();
  });

  it('say why it failed in the reader’s words, not the server’s', () => {
    const failed = job({
      state: 'failed',
      problem: {
        type: 'about:blank',
        title: 'Bad Gateway',
        status: 502,
        code: 'upstream_error',
        detail: 'English for the API',
      },
    });
    const text = stateText(failed, en, NOW);
    expect(text).toMatch(/^Failed: /);
    expect(text).not.toContain('English for the API');
  });

  it('give a file’s size in the locale’s units', () => {
    expect(sizeText(13_420_000, 'en')).toBe('13 MB');
    expect(sizeText(2_500_000, 'en')).toBe('2.5 MB');
    expect(sizeText(2_500_000, 'de')).toBe('2,5 MB');
    expect(sizeText(512, 'en')).toBe('0.5 kB');
  });
});

describe('when a job is read again', () => {
  it('while it runs, soon; while it waits, when it goes on; never once it has ended', () => {
    expect(nextPoll(undefined, null, NOW)).toBe(1500);
    expect(nextPoll(job(), null, NOW)).toBe(1500);
    const until = new Date(NOW + 3000).toISOString();
    expect(nextPoll(job({ state: 'waiting', waitingUntil: until }), null, NOW)).toBe(3000);
    const later = new Date(NOW + 3_600_000).toISOString();
    expect(nextPoll(job({ state: 'waiting', waitingUntil: later }), null, NOW)).toBe(5000);
    for (const state of ['done', 'failed', 'cancelled'] as const)
      expect(nextPoll(job({ state }), null, NOW)).toBe(false);
  });

  it('not once the server no longer has it; less often while it cannot be reached', () => {
    const gone = new ApiError('http', 'There is no such job.', { status: 404 });
    expect(nextPoll(job(), gone, NOW)).toBe(false);
    expect(nextPoll(job(), new ApiError('network', 'offline'), NOW)).toBe(5000);
  });
});

describe('a job’s card', () => {
  const stored: StoredJob = {
    id: ID,
    request: job().request,
    title: 'Endless Archive',
    createdAt: NOW,
    ended: null,
    notify: false,
  };

  function render(locale: CatalogLocale, shown: Job): string {
    const i18n = setupI18n({ locale, messages: { [locale]: compileCatalog(locale) } });
    const queryClient = new QueryClient();
    queryClient.setQueryData(jobKey(ID), shown);
    return renderToStaticMarkup(
      <I18nProvider i18n={i18n}>
        <QueryClientProvider client={queryClient}>
          <MemoryRouter>
            <JobCard stored={stored} showList />
          </MemoryRouter>
        </QueryClientProvider>
      </I18nProvider>,
    );
  }

  const STATES: Job[] = [
    job({ state: 'waiting', waitingUntil: '2026-11-27T12:05:00.000Z' }),
    job({
      progress: { pages: 15, items: 1500, lookups: 15, totalItems: 5000 },
      estimate: { pagesLeft: 35, secondsLeft: 180, endsAt: '2026-11-27T12:03:00.000Z' },
    }),
    job({
      state: 'done',
      result: {
        href: `/api/jobs/${ID}/result`,
        type: 'text/plain; charset=utf-8',
        bytes: 13_420_000,
        items: 300_000,
        expiresAt: '2026-11-28T12:00:00.000Z',
      },
    }),
    job({
      state: 'failed',
      problem: {
        type: 'about:blank',
        title: 'Bad Gateway',
        status: 502,
        code: 'upstream_error',
        detail: 'x',
      },
    }),
  ];

  it('offers what can be done in each state, and says the state for tests in any language', () => {
    const [waiting, running, done] = STATES.map((shown) => render('en', shown));
    expect(waiting).toContain('data-job-state="waiting"');
    expect(waiting).toContain('>Cancel</button>');
    expect(running).toContain('1,500 of 5,000 items · 30%');
    expect(running).toMatch(/<progress[^>]*value="30"/);
    expect(done).toContain(`href="/api/jobs/${ID}/result"`);
    expect(done).toContain('Download (13 MB)');
    expect(done).toContain('>Remove from the list</button>');
    expect(done).not.toContain('>Cancel</button>');
    // The list it was started on, by its title, linked.
    expect(done).toMatch(
      /href="\/channel\/UCcatalogueDemoChannel03"[^>]*><bdi>Videos of Endless Archive/,
    );
  });

  it('has no word of its own outside the catalog', () => {
    // Words Intl writes (units, the time of day), and the list's own title.
    const intl = /^(?:MB|AM|PM|Endless|Archive|UCcatalogueDemoChannel03)$/;
    for (const shown of STATES) {
      const html = render(PSEUDO_LOCALE, shown);
      const text = html
        .replace(/<[^>]*>/g, ' ')
        .replaceAll('&amp;', '&')
        .split(/[^A-Za-z0-9]+/)
        .filter((word) => /[A-Za-z]/.test(word) && !intl.test(word));
      expect(text, html).toEqual([]);
    }
  });
});
