import type { ListLookup } from '../../shared/app-routes.ts';
import type { PageSource } from './page-source.ts';
import type { PageAnswer, StoredPage } from './page-entry.ts';

/**
 * A list's first page for what describes a list from outside (a preview card, an oEmbed
 * answer): the copy the cache holds, else the one lookup a link preview may make. The
 * upstream's problem when it gives no page (a 404 for a list it does not have).
 */
export async function previewFirstPage(
  pageSource: Pick<PageSource, 'peek' | 'get'>,
  list: ListLookup,
  client: string,
): Promise<StoredPage | Extract<PageAnswer, { kind: 'problem' }>> {
  const lookup = { ...list, continuation: undefined };
  const cached = pageSource.peek(lookup);
  if (cached !== undefined) return cached;
  const answer = await pageSource.get(lookup, client);
  return answer.kind === 'page' ? answer.page : answer;
}
