// A page whose items the app let go (page-trim.ts): the page as it was, with its items replaced
// by an array of as many holes. An array of holes is not a "plain" array to the query's
// structural sharing, which keeps it as it is rather than copying it, and it costs a few bytes
// per row against the kilobyte or so of a row's item.

/** Whether a page's items were let go. */
export function isLetGo(page: { items: readonly unknown[] }): boolean {
  return page.items.length > 0 && !Object.hasOwn(page.items, 0);
}

export function withItemsLetGo<P extends { items: readonly unknown[] }>(page: P): P {
  return { ...page, items: new Array(page.items.length) };
}
