// SQLite's result codes, as node:sqlite reports them (`errcode`, possibly an extended code whose
// low byte is the primary one): https://sqlite.org/rescode.html. Telling them apart is what
// keeps a file another connection is using from being taken for a damaged one.

export const SQLITE_BUSY = 5;
export const SQLITE_LOCKED = 6;
export const SQLITE_CORRUPT = 11;
export const SQLITE_NOTADB = 26;

/** The primary result code of a node:sqlite error; null for anything else. */
export function sqliteCode(error: unknown): number | null {
  const code = (error as { errcode?: unknown } | null)?.errcode;
  return typeof code === 'number' ? code & 0xff : null;
}
