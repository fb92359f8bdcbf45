// Find as you type across a whole list's titles (and, in a playlist, its channels' names). Each
// item's text is lowercased once and kept with the item (a WeakMap: items are the cache's
// own objects, shared across renders), so a keystroke costs one `includes` per item.

export interface Findable {
  title: string;
  channelTitle?: string;
}

const lowered = new WeakMap<object, string>();

function haystackOf(item: Findable): string {
  let text = lowered.get(item);
  if (text === undefined) {
    text =
      item.channelTitle === undefined
        ? item.title.toLowerCase()
        : `${item.title}\n${item.channelTitle}`.toLowerCase();
    lowered.set(item, text);
  }
  return text;
}

/** The items' search texts, in list order; built once per item however often it is asked. */
export function buildHaystack(items: ReadonlyArray<Findable | undefined>): string[] {
  const out = new Array<string>(items.length);
  // A position whose page was let go matches nothing until it is read again.
  for (let i = 0; i < items.length; i++) out[i] = items[i] ? haystackOf(items[i]!) : '';
  return out;
}

/** The query as it is matched: trimmed, lowercased, spaces collapsed. */
export function normalizeQuery(query: string): string {
  return query.trim().replace(/\s+/g, ' ').toLowerCase();
}

/** Positions (0-based, in list order) whose text holds the query; none for an empty query. */
export function findMatches(haystack: readonly string[], query: string): Int32Array {
  const needle = normalizeQuery(query);
  if (needle === '') return new Int32Array(0);
  const found = new Int32Array(haystack.length);
  let n = 0;
  for (let i = 0; i < haystack.length; i++) {
    if (haystack[i]!.includes(needle)) found[n++] = i;
  }
  return found.slice(0, n);
}

/** The match after (or before) `current` in a list of `count`, going round at the ends. */
export function stepMatch(current: number, count: number, step: 1 | -1): number {
  if (count === 0) return -1;
  if (current < 0) return step === 1 ? 0 : count - 1;
  return (current + step + count) % count;
}
