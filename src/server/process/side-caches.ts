import { CARDS_MAX_BYTES } from '../cards/preview-cards.ts';
import { MAX_DATES, MAX_TAILS } from '../feeds/feed-source.ts';
import { FEED_SIZE } from '../feeds/playlist-tail.ts';
import { MAX_FAILING_PAGES } from '../pages/failure-backoff.ts';
import { COUNTED_ENTRY_BYTES, textBytes } from '../pages/memory-cost.ts';
import { MAX_PAGELESS } from '../rendering/app-html.ts';
import { MAX_CHANNEL_TITLES, MAX_TITLE_LENGTH } from '../rendering/channel-titles.ts';
import type { SideCache } from './memory-plan.ts';

// The caches beside the page cache, each at the most its bound lets it hold, for the memory
// plan said at start. The page cache's own entries carry their renders and previews (charged
// to CACHE_MAX_BYTES); these are bounded by a count or their own bytes, each entry at V8's cost
// of what it holds (memory-cost.ts where it is strings), rounded up. libvips' own operation
// cache is off.

/**
 * A playlist item held in a feed's tail: its strings (title, description, names, IDs) and
 * objects, as bench memory's heap grew per further tail.
 */
const FEED_ITEM_BYTES = 1_000;
/** A feed item's first date: its key, the Date and its entry. */
const FIRST_DATE_BYTES = 160;
/** A channel's name at its longest, in any script, keyed by the channel's ID. */
const CHANNEL_TITLE_BYTES =
  COUNTED_ENTRY_BYTES + textBytes('UC'.length + 22) + textBytes(MAX_TITLE_LENGTH, true);
/** A failing page's back-off: its key, its record and the problem it answers with. */
const FAILING_PAGE_BYTES = 300;
/**
 * What drawing cards loads once, beside the cards kept: libvips and Pango's own memory, and the
 * card fonts mapped from their files, as bench memory measured it with two malloc arenas.
 */
const CARD_DRAWING_BYTES = 96 * 2 ** 20;
/** A stored render of a view: its brotli copy (stored-render.ts), as a large list's. */
const PAGELESS_RENDER_BYTES = 25 * 1024;

export function sideCaches(): SideCache[] {
  const count = (n: number) => n.toLocaleString('en');
  return [
    {
      name: 'preview cards',
      bound: `${CARDS_MAX_BYTES / 2 ** 20} MiB of PNG`,
      bytes: CARDS_MAX_BYTES,
    },
    {
      name: 'drawing cards (libvips, Pango, the card fonts)',
      bound: 'loaded with the first card drawn',
      bytes: CARD_DRAWING_BYTES,
    },
    {
      name: 'feed tails',
      bound: `${count(MAX_TAILS)} playlists × ${FEED_SIZE} items`,
      bytes: MAX_TAILS * FEED_SIZE * FEED_ITEM_BYTES,
    },
    {
      name: 'feed items’ first dates',
      bound: `${count(MAX_DATES)} dates`,
      bytes: MAX_DATES * FIRST_DATE_BYTES,
    },
    {
      name: 'channel titles',
      bound: `${count(MAX_CHANNEL_TITLES)} names of at most ${MAX_TITLE_LENGTH} characters`,
      bytes: MAX_CHANNEL_TITLES * CHANNEL_TITLE_BYTES,
    },
    {
      name: 'failing pages’ back-off',
      bound: `${count(MAX_FAILING_PAGES)} pages`,
      bytes: MAX_FAILING_PAGES * FAILING_PAGE_BYTES,
    },
    {
      name: 'renders without a page',
      bound: `${MAX_PAGELESS} renders`,
      bytes: MAX_PAGELESS * PAGELESS_RENDER_BYTES,
    },
  ];
}
