import type { UpstreamBreaker } from '../upstream/breaker.ts';
import type { RedisConnection } from './redis-connection.ts';

// One replica's discovery that the upstream is failing, told to the others: when a replica's
// breaker opens (upstream/breaker.ts), it says so on a channel and in a key that lasts as long
// as the breaker stays open; every other replica's closed breaker opens for the rest of that
// time, so they spend no quota finding out for themselves. Each replica then probes on its
// own clock; the first probe that succeeds closes only its own breaker, and the others close
// theirs with their own probes a moment later. A replica that connects (or reconnects) while
// the key lives opens too.

export interface SharedBreakerSignal {
  /** Call from the breaker's onStateChange: announces an opening that happened here. */
  opened(openMs: number): void;
  close(): void;
}

export function createSharedBreakerSignal(options: {
  connection: RedisConnection;
  keyPrefix: string;
  breaker: () => UpstreamBreaker;
}): SharedBreakerSignal {
  const { connection, keyPrefix, breaker } = options;
  const channel = `${keyPrefix}breaker`;
  const key = `${keyPrefix}breaker:open`;
  /** Set while opening because another replica said so: not announced again. */
  let adopting = false;
  const adopt = (ms: number) => {
    adopting = true;
    try {
      breaker().openFor(ms);
    } finally {
      adopting = false;
    }
  };

  const subscriber = connection.subscriber();
  const onMessage = (from: string, message: string) => {
    if (from === channel) adopt(Number(message));
  };
  subscriber.on('message', onMessage);
  subscriber.subscribe(channel).catch(() => {});
  const catchUp = () => {
    connection.client.pttl(key).then(
      (ms) => {
        if (ms > 0) adopt(ms);
      },
      (error: unknown) => connection.reportFailure(error),
    );
  };
  connection.onChange((state) => {
    if (state === 'up') catchUp();
  });

  return {
    opened(openMs) {
      if (adopting || !connection.up()) return;
      connection.client
        .multi()
        .set(key, '1', 'PX', openMs)
        .publish(channel, String(openMs))
        .exec()
        .catch((error: unknown) => connection.reportFailure(error));
    },
    close() {
      subscriber.off('message', onMessage);
    },
  };
}
