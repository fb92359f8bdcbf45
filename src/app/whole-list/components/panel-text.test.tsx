import { setupI18n } from '@lingui/core';
import { I18nProvider } from '@lingui/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import type { PlaylistItem } from '../../../shared/catalogue-schema.ts';
import { compileCatalog } from '../../../shared/i18n/catalog-files.ts';
import { PSEUDO_LOCALE, type CatalogLocale } from '../../../shared/locales.ts';
import type { ListSummary, WalkCost } from '../../../shared/whole-list.ts';
import { summaryOptions, walkCostOptions } from '../api/whole-list-queries.ts';
import type { WholeListHost } from '../hooks/use-whole-list.ts';
import type { WholeListProps } from '../panel-props.ts';
import { FindBar, WholeListPanel } from '../panel.tsx';
import { WholeListSlot } from '../whole-list-slot.tsx';
import { SummaryView } from './summary-view.tsx';

// The panel's words as a reader sees them: in English, as the browser tests read them; and in
// the pseudo-locale, where every letter of the interface's own text is swapped for a look-alike,
// so that a plain ASCII word on the panel is one that did not come through the catalog. The
// catalogue's data (titles, here in Japanese) is not the interface's.

const ID = 'PL0123456789';

function item(index: number, duration: number | null, views: string): PlaylistItem {
  return {
    index,
    id: `v${index}`,
    title: `動画 ${index}`,
    thumbnails: [],
    channelId: 'UC1',
    channelTitle: '東京',
    viewsText: views,
    publishedText: '',
    duration,
  };
}

const ITEMS = [item(1, 65, '1,234 views'), item(2, 4000, '12 views'), item(3, null, '')];

const host: WholeListHost = {
  open: true,
  toggle: () => {},
  order: null,
  setOrder: () => {},
  marked: -1,
  jump: () => {},
  itemAt: (row) => row,
  holdsAddress: () => false,
};

const SUMMARY: ListSummary = {
  list: 'playlist',
  id: ID,
  title: null,
  complete: false,
  stoppedBy: { code: 'quota_exhausted', detail: 'English for the API.', retryAfter: 120 },
  pages: 1,
  totalItems: 3,
  count: 3,
  range: null,
  measure: {
    kind: 'duration',
    unit: 'seconds',
    total: 4065,
    counted: 2,
    missing: 1,
    average: 2032.5,
    median: 2032.5,
    shortest: { position: 1, id: 'v1', title: '動画 1', value: 65 },
    longest: { position: 9, id: 'v9', title: '動画 9', value: 4000 },
  },
};

/** A channel's playlists add up videos, not time. */
const VIDEO_SUMMARY: ListSummary = {
  ...SUMMARY,
  list: 'channel-playlists',
  complete: true,
  stoppedBy: null,
  totalItems: null,
  measure: {
    kind: 'videoCount',
    unit: 'videos',
    total: 1201,
    counted: 3,
    missing: 0,
    average: 400.3,
    median: 1,
    shortest: { position: 2, id: 'p2', title: '再生リスト 2', value: 1 },
    longest: { position: 1, id: 'p1', title: '再生リスト 1', value: 1200 },
  },
};

const COST: WalkCost = {
  list: 'playlist',
  id: ID,
  totalItems: 5000,
  pages: 50,
  cachedPages: 2,
  lookups: 48,
  quota: { budgetPerHour: 5000, windowSeconds: 3600, remaining: 4000, pausedForSeconds: 90 },
  share: { perClient: 500, remaining: 20 },
  affordable: false,
  limitedBy: 'share',
  retryAfter: 600,
};

function render(locale: CatalogLocale, ui: ReactNode, search = '', cost = COST): string {
  const i18n = setupI18n({ locale, messages: { [locale]: compileCatalog(locale) } });
  const queryClient = new QueryClient();
  queryClient.setQueryData(summaryOptions('playlist', ID).queryKey, SUMMARY);
  queryClient.setQueryData(walkCostOptions('playlist', ID).queryKey, cost);
  return renderToStaticMarkup(
    <I18nProvider i18n={i18n}>
      <QueryClientProvider client={queryClient}>
        <MemoryRouter initialEntries={[`/playlist/${ID}${search}`]}>{ui}</MemoryRouter>
      </QueryClientProvider>
    </I18nProvider>,
  );
}

/** What a reader meets: the text, and the attributes that are read out or shown. */
function readerText(html: string): string[] {
  const decode = (text: string) =>
    text
      .replaceAll('&quot;', '"')
      .replaceAll('&#x27;', "'")
      .replaceAll('&lt;', '<')
      .replaceAll('&gt;', '>')
      .replaceAll('&amp;', '&');
  const attributes = [
    ...html.matchAll(/\s(?:aria-label|aria-valuetext|title|placeholder)="([^"]*)"/g),
  ].map((match) => decode(match[1]!));
  const text = html
    .replace(/<[^>]*>/g, '\n')
    .split('\n')
    .map((line) => decode(line).trim())
    .filter((line) => line !== '');
  return [...text, ...attributes];
}

const props = (overrides: Partial<WholeListProps>): WholeListProps => ({
  list: 'playlist',
  id: ID,
  host,
  items: ITEMS,
  complete: true,
  totalItems: 3,
  title: null,
  ...overrides,
});

const VIEWS = [
  <WholeListSlot key="slot" {...props({})} />,
  <WholeListSlot key="closed" {...props({ host: { ...host, open: false } })} />,
  <WholeListPanel key="complete" {...props({})} />,
  <WholeListPanel key="partial" {...props({ complete: false, totalItems: 5000 })} />,
  <SummaryView key="videos" summary={VIDEO_SUMMARY} props={props({ list: 'channel-playlists' })} />,
  <SummaryView
    key="range"
    summary={{ ...SUMMARY, range: { from: 2, to: 3, requestedTo: 9, clipped: true } }}
    props={props({})}
  />,
];

describe('the panel’s words', () => {
  it('reads in English as the browser tests expect', () => {
    const complete = readerText(render('en', <WholeListPanel {...props({})} />));
    expect(complete).toContain(
      'All 3 items are loaded: find, sort and the charts cover every one.',
    );
    expect(complete).toContain('The whole list · 3 videos of 3 stated');
    expect(complete).toContain('1:07:45');
    expect(complete).toContain('(1 hr, 7 min)');
    expect(complete).toContain(
      'Partial: the server could not read the whole list. The explorer has used its current allowance of catalogue requests. Try again in 2 minutes.',
    );
    expect(complete).toContain('All 3 items · 1 live or without a duration');
    expect(complete).toContain('Download CSV');
    expect(complete.join(' ')).not.toContain('English for the API');

    const partial = readerText(
      render('en', <WholeListPanel {...props({ complete: false, totalItems: 5000 })} />),
    );
    expect(partial).toContain('50 pages: 48 lookups to the catalogue, 2 cached.');
    expect(partial).toContain(
      'Quota for this window (1 hour): 4,000 of 5,000 lookups left · paused for 2 minutes (the catalogue asked) · your share: 20 of 500.',
    );
    expect(partial).toContain(
      'Not enough of your share of this window (1 hour) left for the whole list: try again in 10 minutes.',
    );
    expect(partial).toContain('The 3 items loaded so far · 1 live or without a duration');

    const videos = readerText(
      render(
        'en',
        <SummaryView summary={VIDEO_SUMMARY} props={props({ list: 'channel-playlists' })} />,
      ),
    );
    expect(videos).toContain('The whole list · 3 playlists');
    expect(videos).toContain('1,201 videos');
    expect(videos).toContain('Average 400 videos · median 1');

    const find = readerText(render('en', <FindBar {...props({ complete: false })} />, '?q=動画'));
    expect(find).toContain('3 matches');
    expect(find).toContain('Find in titles and channels');
    expect(find).toContain('Searching in the 3 loaded of 3 items: Load all to search every item.');
  });

  it('says the shortest and longest items with their places, titles kept as the catalogue’s', () => {
    const html = render('en', <SummaryView summary={SUMMARY} props={props({})} />);
    // Item 1 is loaded: a button that jumps to it. Item 9 is not: a link to it in the playlist.
    expect(html).toMatch(
      /<li[^>]*><span[^>]*>Shortest:<\/span> <button[^>]*aria-label="Show #1 in the list"[^>]*>#1<\/button> \(<bdi[^>]*>1:05<\/bdi>\) <bdi>動画 1<\/bdi><\/li>/,
    );
    expect(html).toMatch(
      /Longest:<\/span> <a[^>]*href="\/playlist\/PL0123456789\?index=9"[^>]*>#9<\/a>/,
    );
    // A title that looks like the message's own markup stays text.
    const odd = { ...SUMMARY.measure.shortest!, title: '<0>x</0>' };
    const oddHtml = render(
      'en',
      <SummaryView
        summary={{ ...SUMMARY, measure: { ...SUMMARY.measure, shortest: odd } }}
        props={props({})}
      />,
    );
    expect(oddHtml).toContain('<bdi>&lt;0&gt;x&lt;/0&gt;</bdi>');
  });

  it('says the server’s quota window, not always an hour', () => {
    const partial = (windowSeconds: number, locale: CatalogLocale = 'en', retryAfter?: number) =>
      readerText(
        render(locale, <WholeListPanel {...props({ complete: false, totalItems: 5000 })} />, '', {
          ...COST,
          quota: { ...COST.quota, windowSeconds, pausedForSeconds: 0 },
          share: undefined,
          limitedBy: 'quota',
          ...(retryAfter === undefined ? { retryAfter: undefined } : { retryAfter }),
        }),
      );
    const day = partial(86_400, 'en', 3600);
    expect(day).toContain('Quota for this window (24 hours): 4,000 of 5,000 lookups left.');
    expect(day).toContain(
      'Not enough quota left in this window (24 hours) for the whole list: try again in 1 hour.',
    );
    const seconds = partial(10);
    expect(seconds).toContain('Quota for this window (10 seconds): 4,000 of 5,000 lookups left.');
    expect(seconds).toContain(
      'Not enough quota left in this window (10 seconds) for the whole list.',
    );
    expect(seconds.filter((line) => /quota/i.test(line)).join(' ')).not.toMatch(/hour/);
    // In the reader's language too.
    expect(partial(86_400, 'de').join(' ')).toContain(
      'Kontingent dieses Zeitfensters (24 Stunden)',
    );
    expect(partial(10, 'fr').join(' ')).toMatch(/Quota de cette période \(10\ssecondes\)/);
  });

  it('draws the charts from the reader’s start: right to left in Arabic', () => {
    const firstBar = (locale: CatalogLocale) => {
      const svg = /<svg.*?<\/svg>/.exec(render(locale, <WholeListPanel {...props({})} />))![0];
      return Number(/<rect x="([\d.]+)"/.exec(svg)![1]);
    };
    // The shortest durations' bar: at the left edge, or mirrored to the right one.
    expect(firstBar('en')).toBe(6);
    expect(firstBar('ar')).toBeCloseTo(320 - 6 - (320 - 6 * 9) / 8);
  });

  it('has no word of its own outside the catalog', () => {
    // Words the locale's own formats write (Intl's units, compact numbers), not the panel's.
    const intl = /^\d*(?:K|M|hr|min|sec|minutes?|seconds?|hours?)$/;
    for (const view of VIEWS) {
      const search = view.type === FindBar ? '?q=動画' : '';
      for (const text of readerText(render(PSEUDO_LOCALE, view, search))) {
        const plain = text
          .split(/[^A-Za-z0-9]+/)
          .filter((word) => /[A-Za-z]/.test(word) && !intl.test(word));
        expect(plain, text).toEqual([]);
      }
    }
  });
});
