import type { ListItem, ListKind } from '../../shared/whole-list.ts';
import type { WholeListHost } from './hooks/use-whole-list.ts';

/** What a list view gives its Whole list panel: the list, what of it has loaded, and its host. */
export interface WholeListProps {
  list: ListKind;
  id: string;
  host: WholeListHost;
  /** By position; undefined where a long list's page was let go (page-trim.ts). */
  items: ReadonlyArray<ListItem | undefined>;
  /** Every page is in, and held. */
  complete: boolean;
  /** A playlist's stated length. */
  totalItems: number | null;
  /** The list's title when the view knows it (a job started here is listed by it). */
  title: string | null;
}
