import { rightSized } from '../http/representation.ts';
import type { PageCacheEntry, StoredPage } from './page-entry.ts';

// A cache entry as bytes, for the tiers beyond this process's memory (Redis for replicas, the
// disk for a process alone): the same bytes whichever holds them.

/** An entry as stored: a line of JSON (everything but the body), then the body's bytes. */
export function encodeEntry(entry: PageCacheEntry): Buffer {
  if (entry.kind === 'refusal') return Buffer.from(`${JSON.stringify(entry)}\n`);
  const { body, etag, freshUntil, staleUntil } = entry;
  const head = Buffer.from(`${JSON.stringify({ kind: 'page', etag, freshUntil, staleUntil })}\n`);
  return Buffer.concat([head, body]);
}

export function decodeEntry(bytes: Buffer): PageCacheEntry | undefined {
  const end = bytes.indexOf(10);
  if (end < 0) return undefined;
  try {
    const head = JSON.parse(bytes.subarray(0, end).toString('utf8')) as PageCacheEntry;
    if (head.kind === 'refusal') return head;
    if (head.kind !== 'page') return undefined;
    const page: StoredPage = {
      kind: 'page',
      etag: head.etag,
      freshUntil: head.freshUntil,
      staleUntil: head.staleUntil,
      // A block of its own, never the reply's nor the shared pool's (Buffer.from takes small
      // copies from the pool's slabs, each of which the cached page would keep alive whole).
      body: rightSized(bytes.subarray(end + 1)),
      encoded: {},
      encodedBytes: 0,
    };
    return page;
  } catch {
    return undefined;
  }
}
