import { CARDS_MAX_BYTES } from '../cards/preview-cards.ts';
import { MAX_DATES, MAX_TAILS } from '../feeds/feed-source.ts';
import { FEED_SIZE } from '../feeds/playlist-tail.ts';
import { MAX_FAILING_PAGES } from '../pages/failure-backoff.ts';
import { MAX_PAGELESS } from '../rendering/app-html.ts';
import { MAX_CHANNEL_TITLES, MAX_TITLE_LENGTH } from '../rendering/channel-titles.ts';
import type { SideCache } from './memory-plan.ts';

// The caches beside the page cache, each at the most its bound lets it hold, for the memory
// plan said at start. The page cache's own entries carry their renders and previews (charged
// to CACHE_MAX_BYTES); these are bounded by a count or their own bytes. Per-entry sizes are V8's
// cost of the objects held (a string of n characters takes about n bytes, or 2n outside Latin-1;
// an object or Map entry some 40 to 80 bytes), rounded up. libvips' own operation cache is off.

const MB = 2 ** 20;

/**
 * A playlist item held in a feed's tail: its strings (title, description, names, IDs) and
 * objects; bench memory's heap grew about 48 KB per further tail of 50 items.
 */
const FEED_ITEM_BYTES = 1_000;
/**
 * What drawing cards loads once, beside the cards kept: libvips and Pango's own memory, and the
 * card fonts mapped from their files. Bench memory, with two malloc arenas (start.ts): 97 MiB
 * more resident after 300 cards (8 MiB of them kept), 112 MiB after 1,200 (16 MiB kept).
 */
const CARD_DRAWING_MB = 96;
/** A stored render of a view: its brotli copy (stored-render.ts), about 20 KB for a large list. */
const PAGELESS_RENDER_BYTES = 25 * 1024;

export function sideCaches(): SideCache[] {
  return [
    {
      name: 'preview cards',
      bound: `${CARDS_MAX_BYTES / MB} MiB of PNG`,
      mb: CARDS_MAX_BYTES / MB,
    },
    {
      name: 'drawing cards (libvips, Pango, the card fonts)',
      bound: 'loaded with the first card drawn',
      mb: CARD_DRAWING_MB,
    },
    {
      name: 'feed tails',
      bound: `${MAX_TAILS.toLocaleString('en')} playlists × ${FEED_SIZE} items`,
      mb: (MAX_TAILS * FEED_SIZE * FEED_ITEM_BYTES) / MB,
    },
    {
      name: 'feed items’ first dates',
      bound: `${MAX_DATES.toLocaleString('en')} dates`,
      mb: (MAX_DATES * 160) / MB,
    },
    {
      name: 'channel titles',
      bound: `${MAX_CHANNEL_TITLES.toLocaleString('en')} names of at most ${MAX_TITLE_LENGTH} characters`,
      mb: (MAX_CHANNEL_TITLES * (2 * MAX_TITLE_LENGTH + 120)) / MB,
    },
    {
      name: 'failing pages’ back-off',
      bound: `${MAX_FAILING_PAGES.toLocaleString('en')} pages`,
      mb: (MAX_FAILING_PAGES * 300) / MB,
    },
    {
      name: 'renders without a page',
      bound: `${MAX_PAGELESS} renders`,
      mb: (MAX_PAGELESS * PAGELESS_RENDER_BYTES) / MB,
    },
  ].map((cache) => ({ ...cache, mb: Math.round(cache.mb * 10) / 10 }));
}
