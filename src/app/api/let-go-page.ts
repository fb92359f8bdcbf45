// A page whose items the app let go (page-trim.ts): the page as it was, with its items replaced
// by an array of as many holes. An array of holes is not a "plain" array to the query's
// structural sharing, which keeps it as it is rather than copying it, and it costs nothing per
// row against the kilobyte or so of a row's item.

/** Whether a page's items were let go. */
export function isLetGo(page: { items: readonly unknown[] }): boolean {
  return page.items.length > 0 && !Object.hasOwn(page.items, 0);
}

// Never written to, so every page of a length shares one: a page let go costs its own few fields.
const holes = new Map<number, readonly unknown[]>();

export function withItemsLetGo<P extends { items: readonly unknown[] }>(page: P): P {
  const length = page.items.length;
  let items = holes.get(length);
  if (!items) holes.set(length, (items = Object.freeze(new Array<unknown>(length))));
  return { ...page, items: items as P['items'] };
}
