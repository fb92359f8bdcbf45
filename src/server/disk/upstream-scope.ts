import { createHash } from 'node:crypto';
import { resolve } from 'node:path';
import type { ServerConfig } from '../config.ts';

// What STATE_DIR keeps is true of one upstream only: the hour's spending and a 429's pause
// belong to the account behind an API key (spec §2.1, §2.3), and a page to the service that sent
// it. So every row is keyed by its upstream: the base URL and API key, or, for the embedded
// catalogue (whose credentials are made up each run), the database it serves. State of another
// upstream or key is never read, but kept, so switching back finds it again. The key is a
// fixed-length digest: it prefixes a row's key unambiguously and the API key cannot be read back.

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
