import { backoffMs } from '../../shared/backoff.ts';
import { QueryClient } from '@tanstack/react-query';
import { ApiError } from './api-error.ts';

// Cache policy: going back to a view shows it at once from the cache, so pages stay fresh, and
// are kept, for long. A stale infinite list refetches every page in sequence, so focus and
// reconnect do not trigger refetches (the upstream quota is per hour).

const STALE_TIME_MS = 10 * 60_000;

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: STALE_TIME_MS,
        gcTime: 30 * 60_000,
        refetchOnWindowFocus: false,
        refetchOnReconnect: false,
        // A failed list says so and offers Retry; coming back to it (or hydrating a
        // server-rendered not-found view) shows the same answer rather than asking again.
        retryOnMount: false,
        retry: (failureCount, error) => {
          // 4xx (not found, bad ID, rate limited) gives the same answer again.
          if (error instanceof ApiError && error.isClientError) return false;
          return failureCount < 2;
        },
        retryDelay: (failures) => backoffMs(failures + 1, { firstMs: 500, maxMs: 4000 }),
      },
    },
  });
}
