// What a reader last saw of a followed list, kept small: a reader may follow thousands of lists
// in localStorage's few megabytes. Each video is kept as a short digest of its ID (DIGEST_LENGTH
// characters, enough that two videos of one feed are almost never taken for each other), and a
// playlist's positions as runs: its feed is its end, so they are one run, [first, length] going
// down. follow-store.test.ts measures what a list costs.

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
export const DIGEST_LENGTH = 5;

/** FNV-1a over the ID's UTF-16 units, folded to 30 bits, as 5 base-64 characters. */
export function digestOf(id: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < id.length; i++) {
    hash ^= id.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  hash = (hash ^ (hash >>> 30)) & 0x3fffffff;
  let text = '';
  for (let i = 0; i < DIGEST_LENGTH; i++) {
    text += ALPHABET[hash & 63];
    hash >>>= 6;
  }
  return text;
}

/** The digests of `ids`, in order, as one string. */
export const digestsOf = (ids: readonly string[]): string => ids.map(digestOf).join('');

/** The digests a string of them holds. */
export function splitDigests(digests: string): string[] {
  const out: string[] = [];
  for (let at = 0; at + DIGEST_LENGTH <= digests.length; at += DIGEST_LENGTH)
    out.push(digests.slice(at, at + DIGEST_LENGTH));
  return out;
}

/** Positions as runs of consecutive ones, descending or ascending: [first, length, …]. */
export function encodePositions(positions: readonly number[]): number[] {
  const runs: number[] = [];
  let at = 0;
  while (at < positions.length) {
    const first = positions[at]!;
    const step = positions[at + 1] === first - 1 ? -1 : 1;
    let length = 1;
    while (positions[at + length] === first + step * length) length++;
    // A run of one keeps the step unsaid; a run down is stored with a negative length.
    runs.push(first, step === -1 && length > 1 ? -length : length);
    at += length;
  }
  return runs;
}

export function decodePositions(runs: readonly number[]): number[] {
  const positions: number[] = [];
  for (let at = 0; at + 1 < runs.length; at += 2) {
    const first = runs[at]!;
    const length = runs[at + 1]!;
    const step = length < 0 ? -1 : 1;
    // Bounded, whatever a damaged store says: no feed holds that many items.
    for (let i = 0; i < Math.min(Math.abs(length), 1000); i++) positions.push(first + step * i);
  }
  return positions;
}
