import { VIDEO_ID_PATTERN } from '../../shared/id-patterns.ts';
import { readIndex } from '../../shared/app-routes.ts';

// A playlist link can name where to open it: `?index=N` (a 1-based position) or `?v=VIDEO`.
// Pages are chained (spec §2.6), so reaching item N means loading every page up to it; these
// are the pure parts of that seek and of keeping the address bar on the item at the top.

/** Where a deep link opens the playlist: at a position, or at a video. */
export type SeekTarget = { index: number } | { videoId: string };

/**
 * `none`: no target (or the view is returning to a remembered position); `loading`: pages are
 * still coming in; `found`, `missing` (the list ended without it) or `failed` (a page failed).
 */
export type SeekState = 'none' | 'loading' | 'found' | 'missing' | 'failed';

/** The target in a playlist URL's query string; `index` wins over `v`. */
export function readSeekTarget(search: string): SeekTarget | null {
  const query = new URLSearchParams(search);
  const index = readIndex(query.get('index'));
  if (index !== undefined) return { index };
  const video = query.get('v');
  return video !== null && VIDEO_ID_PATTERN.test(video) ? { videoId: video } : null;
}

/** The position (0-based) of the target among the items loaded so far, or -1. */
export function findTarget(
  items: ReadonlyArray<{ index: number; id: string } | undefined>,
  target: SeekTarget,
): number {
  if ('index' in target) {
    // `index` is the position (1-based) unless the catalogue says otherwise.
    if (items[target.index - 1]?.index === target.index) return target.index - 1;
    return items.findIndex((item) => item?.index === target.index);
  }
  return items.findIndex((item) => item?.id === target.videoId);
}

export function seekState(list: {
  seeking: boolean;
  position: number;
  loaded: boolean;
  hasNextPage: boolean;
  isError: boolean;
}): SeekState {
  if (!list.seeking) return 'none';
  if (list.position >= 0) return 'found';
  if (list.loaded && !list.hasNextPage) return 'missing';
  return list.isError ? 'failed' : 'loading';
}

/**
 * The query string with `index` naming the item at the top (none for the first item), and
 * without the `v` the link may have come with; everything else in it is kept.
 */
export function withTopIndex(search: string, index: number): string {
  const query = new URLSearchParams(search);
  query.delete('v');
  if (index > 1) query.set('index', String(index));
  else query.delete('index');
  const text = query.toString();
  return text === '' ? '' : `?${text}`;
}
