import type { CardStore } from '../cards/card-store.ts';
import type { RedisConnection } from './redis-connection.ts';

// Preview cards shared by replicas (cards/card-store.ts): a card's PNG under its content key
// for a day. A key names what the card shows, so an entry is never stale, only unused; while
// the link is down, each replica draws its own, as it would alone.

const CARD_TTL_MS = 24 * 3600_000;

export function createSharedCards(options: {
  connection: RedisConnection;
  keyPrefix: string;
  ttlMs?: number;
}): CardStore {
  const { connection, keyPrefix, ttlMs = CARD_TTL_MS } = options;
  const keyOf = (key: string) => `${keyPrefix}card:${key}`;
  return {
    async get(key) {
      if (!connection.up()) return undefined;
      try {
        return (await connection.client.getBuffer(keyOf(key))) ?? undefined;
      } catch (error) {
        connection.reportFailure(error);
        return undefined;
      }
    },
    set(key, png) {
      if (!connection.up()) return;
      connection.client
        .set(keyOf(key), png, 'PX', ttlMs)
        .catch((error: unknown) => connection.reportFailure(error));
    },
  };
}
