import { QueryClient, type InfiniteData } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import type { EndpointPage } from '../../shared/endpoints.ts';
import { pagesOptions } from './catalogue-queries.ts';
import { isLetGo } from './let-go-page.ts';
import { DEEP_HOLD_ROWS, HOLD_ROWS, letGoFarPages } from './page-trim.ts';

type Page = EndpointPage<'playlist'>;
const ID = 'PLcatalogueDemoPlaylist20000items0';
const { queryKey } = pagesOptions('playlist', ID);

function page(first: number, size: number, last: boolean): Page {
  return {
    items: Array.from({ length: size }, (_, i) => ({
      index: first + i,
      id: `video${String(first + i).padStart(6, '0')}`,
      title: `Video ${first + i}`,
      thumbnails: [],
      channelId: 'UCcatalogueDemoChannel03',
      channelTitle: 'Endless Archive',
      viewsText: '1 view',
      publishedText: '1 day ago',
      duration: 60,
    })),
    continuation: last ? null : `after-${first + size - 1}`,
  };
}

/** A playlist of `pages` pages of 100, cached as the app holds it. */
function cached(pages: number): QueryClient {
  const client = new QueryClient();
  client.setQueryData<InfiniteData<Page, string | null>>(queryKey, {
    pages: Array.from({ length: pages }, (_, i) => page(i * 100 + 1, 100, i === pages - 1)),
    pageParams: Array.from({ length: pages }, (_, i) => (i === 0 ? null : `after-${i * 100}`)),
  });
  return client;
}

const read = (client: QueryClient) =>
  client.getQueryData<InfiniteData<Page, string | null>>(queryKey)!;
const heldRows = (client: QueryClient) =>
  read(client)
    .pages.filter((p) => !isLetGo(p))
    .reduce((sum, p) => sum + p.items.length, 0);

describe('letting a long list’s far pages go', () => {
  it('leaves a list of HOLD_ROWS or fewer whole', () => {
    const client = cached(HOLD_ROWS / 100);
    expect(letGoFarPages(client, 'playlist', ID, 9_000, 9_020)).toBe(false);
    expect(heldRows(client)).toBe(HOLD_ROWS);
  });

  it('lets the farthest pages go, keeps the ones near the window, and moves no position', () => {
    const client = cached(150); // 15,000 rows, the window at row 14,000
    expect(letGoFarPages(client, 'playlist', ID, 14_000, 14_020)).toBe(true);
    const data = read(client);
    // A band around the window, as at row 5,000, not the 10,000 a whole list may hold.
    expect(heldRows(client)).toBeLessThanOrEqual(DEEP_HOLD_ROWS);
    expect(heldRows(client)).toBeGreaterThanOrEqual(DEEP_HOLD_ROWS - 1_000);
    // The first pages, farthest from the window, went; the window's did not.
    expect(isLetGo(data.pages[0]!)).toBe(true);
    expect(isLetGo(data.pages[140]!)).toBe(false);
    expect(data.pages[140]!.items[0]!.index).toBe(14_001);
    // Every page keeps its length and its place in the chain.
    expect(data.pages.every((p) => p.items.length === 100)).toBe(true);
    expect(data.pageParams[1]).toBe('after-100');
    expect(data.pages[0]!.continuation).toBe('after-100');
  });

  it('keeps the last rows loaded, where a deep link is about to take the window', () => {
    const client = cached(150); // loaded up to 15,000 for a link there, the window still at the top
    letGoFarPages(client, 'playlist', ID, 0, 20);
    const data = read(client);
    expect(isLetGo(data.pages[149]!)).toBe(false);
    expect(isLetGo(data.pages[0]!)).toBe(false);
    expect(isLetGo(data.pages[75]!)).toBe(true);
  });

  it('survives the cache’s structural sharing as it was written: holes, not copies', () => {
    const client = cached(150);
    letGoFarPages(client, 'playlist', ID, 14_000, 14_020);
    // Written again as a chain would (the same pages, new arrays), the pages let go stay so.
    const data = read(client);
    client.setQueryData(queryKey, { pages: [...data.pages], pageParams: [...data.pageParams] });
    expect(isLetGo(read(client).pages[0]!)).toBe(true);
    expect(Object.keys(read(client).pages[0]!.items)).toHaveLength(0);
  });

  it('holds the same band however deep the window goes', () => {
    const client = cached(1_000); // 100,000 rows loaded, the window near the end
    letGoFarPages(client, 'playlist', ID, 99_000, 99_020);
    expect(heldRows(client)).toBeLessThanOrEqual(DEEP_HOLD_ROWS);
    // Every page let go shares its holes: the list's own cost no longer grows with its rows.
    const gone = read(client).pages.filter(isLetGo);
    expect(new Set(gone.map((p) => p.items)).size).toBe(1);
  });
});
