import { createHash } from 'node:crypto';
import { resolve } from 'node:path';
import type { ServerConfig } from '../config.ts';

// What STATE_DIR keeps is true of one upstream only. The hour's spending and an upstream 429's
// pause belong to the account behind an API key (catalogue-api.md §2.1: credentials are issued per
// account; §2.3: the hour is the account's, and a 429 holds the calls made with it), and a page belongs to the service that sent it. So every row the state
// files hold is keyed by the upstream it came from: its base URL and a digest of its API key,
// or the embedded catalogue (its credentials are made up each run; it is told apart by the
// database it serves). State written for another upstream or another key is never read; it
// stays under its own key, so switching back finds it again.
//
// The key is a digest of that identity, fixed-length hex: it can prefix a row's own key without
// ambiguity, and it carries neither the API key nor anything from which it could be read back.

export type UpstreamIdentity = ServerConfig['upstream'];

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** The key of `upstream`'s rows in the state files: 32 hex digits. */
export function upstreamScope(upstream: UpstreamIdentity): string {
  const identity =
    upstream.kind === 'remote'
      ? ['remote', upstream.baseUrl, sha256(upstream.apiKey)]
      : ['embedded', resolve(upstream.dataDir)];
  return sha256(JSON.stringify(identity)).slice(0, 32);
}
