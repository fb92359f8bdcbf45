// One case of the HTTP boundary fuzzer, as generated (generators.ts) and as sent (`render`).
//
// A case is kept structured until it is sent: a request target and header values are lists
// of pieces, literal text or slots, and a slot says where its text comes from, how it is
// mutated and how it is percent-encoded. Keeping the steps apart makes a shrunk
// counterexample readable (the ID, the mutation, the encoding), and lets a slot stand for
// something only the run knows: a continuation or an ETag the explorer sent earlier, which
// make deep pages, the fast path for cached pages and conditional requests reachable.

export type Recall = { recall: 'continuation' | 'etag'; pick: number };

export type Mutation =
  | { op: 'none' }
  | { op: 'delete' | 'replace' | 'insert'; at: number; char: string }
  | { op: 'truncate'; at: number }
  | { op: 'repeat'; times: number }
  | { op: 'swap-case' };

export type Encoding =
  /** encodeURIComponent, as a browser's URLSearchParams nearly does. */
  | 'component'
  /** As it is (what cannot go on the wire is percent-encoded at the end, see `sendable`). */
  | 'raw'
  /** Every other character encoded, in lower-case hex. */
  | 'partial'
  | 'double'
  /** Spaces as `+`, the form encoding. */
  | 'plus'
  /** Encoded, then a malformed escape put in the middle. */
  | 'broken';

export interface Slot {
  from: string | Recall;
  mutation: Mutation;
  encoding: Encoding;
}

export type Piece = string | Slot;

export interface FuzzCase {
  method: string;
  target: Piece[];
  /** Leave characters U+0080 to U+00FF in the target as raw bytes rather than encoding them. */
  rawBytes: boolean;
  headers: Array<[name: string, value: Piece[]]>;
  /** Send no Host header (unless `headers` has one). */
  omitHost: boolean;
  body: string | null;
}

/** A case as it goes on the wire. */
export interface WireRequest {
  method: string;
  target: string;
  headers: Array<[string, string]>;
  omitHost: boolean;
  body: string | null;
}

/** What the run has seen so far, for recalled slots. */
export interface Memory {
  continuations: string[];
  etags: string[];
}

/** Past node's limit on the header section, so that the edge's 431 is reached too. */
export const MAX_TARGET_LENGTH = 24_000;
const MAX_HEADER_VALUE_LENGTH = 2_000;
const MEMORY_SIZE = 32;

export function remember(list: string[], value: string): void {
  if (list.includes(value)) return;
  list.push(value);
  if (list.length > MEMORY_SIZE) list.shift();
}

const FALLBACK: Record<Recall['recall'], string> = {
  continuation: 'CgAQAQ%3D%3D',
  etag: '"never-seen"',
};

function recalled({ recall, pick }: Recall, memory: Memory): string {
  const list = recall === 'continuation' ? memory.continuations : memory.etags;
  return list.length === 0 ? FALLBACK[recall] : (list[pick % list.length] as string);
}

/** A position in `text` from a fraction in [0, 1]. */
const position = (text: string, at: number) => Math.min(text.length, Math.floor(at * text.length));

export function mutate(text: string, mutation: Mutation): string {
  switch (mutation.op) {
    case 'none':
      return text;
    case 'delete': {
      const i = position(text, mutation.at);
      return text.slice(0, i) + text.slice(i + 1);
    }
    case 'replace': {
      const i = position(text, mutation.at);
      return text.slice(0, i) + mutation.char + text.slice(i + 1);
    }
    case 'insert': {
      const i = position(text, mutation.at);
      return text.slice(0, i) + mutation.char + text.slice(i);
    }
    case 'truncate':
      return text.slice(0, position(text, mutation.at));
    case 'repeat':
      return text.repeat(mutation.times);
    case 'swap-case':
      return [...text]
        .map((c) => (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase()))
        .join('');
  }
}

const hex = (byte: number) => `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
const UNRESERVED = /[A-Za-z0-9\-_.!~*'()]/;

/** Percent-encodes as encodeURIComponent does, but never throws (a lone surrogate becomes U+FFFD). */
export function percentEncode(
  text: string,
  keep: (char: string) => boolean = (c) => UNRESERVED.test(c),
): string {
  let out = '';
  for (const char of text) {
    out += keep(char) ? char : [...Buffer.from(char, 'utf8')].map(hex).join('');
  }
  return out;
}

function encode(text: string, encoding: Encoding): string {
  switch (encoding) {
    case 'component':
      return percentEncode(text);
    case 'raw':
      return text;
    case 'partial':
      return [...text]
        .map((char, i) => (i % 2 === 0 ? percentEncode(char, () => false).toLowerCase() : char))
        .join('');
    case 'double':
      return percentEncode(percentEncode(text));
    case 'plus':
      return percentEncode(text).replaceAll('%20', '+');
    case 'broken': {
      const encoded = percentEncode(text);
      const i = Math.floor(encoded.length / 2);
      return `${encoded.slice(0, i)}%${encoded.length % 2 === 0 ? 'G1' : 'E2%82'}${encoded.slice(i)}`;
    }
  }
}

/**
 * The request target as node's client will send it: nothing outside `!`..`~`, or outside `!`..
 * U+00FF with `rawBytes` (node writes those as single bytes, which HTTP does not allow).
 */
export function sendable(target: string, rawBytes = false): string {
  const top = rawBytes ? '\u00ff' : '~';
  return percentEncode(target, (c) => c >= '!' && c <= top).slice(0, MAX_TARGET_LENGTH);
}

/** A header value node will send: printable ASCII and tabs, never a line break. */
function headerValue(text: string): string {
  return text.replace(/[^\t\x20-\x7E]/g, '').slice(0, MAX_HEADER_VALUE_LENGTH);
}

function renderPieces(pieces: Piece[], memory: Memory, inHeader: boolean): string {
  return pieces
    .map((piece) => {
      if (typeof piece === 'string') return piece;
      const text = typeof piece.from === 'string' ? piece.from : recalled(piece.from, memory);
      const mutated = mutate(text, piece.mutation);
      return inHeader ? mutated : encode(mutated, piece.encoding);
    })
    .join('');
}

export function render(fuzzCase: FuzzCase, memory: Memory): WireRequest {
  return {
    method: fuzzCase.method,
    target: sendable(renderPieces(fuzzCase.target, memory, false), fuzzCase.rawBytes),
    headers: fuzzCase.headers.map(([name, value]) => [
      name,
      headerValue(renderPieces(value, memory, true)),
    ]),
    omitHost: fuzzCase.omitHost,
    body: fuzzCase.body,
  };
}
