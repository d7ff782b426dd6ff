import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';
import { ApiError, signedOut } from './api';
import { sessionKey } from './session';

/** A session that ends (idle too long, signed out elsewhere, password changed) shows the sign-in
 * screen at the next call, whatever asked. */
function onError(error: unknown): void {
  if (signedOut(error)) queryClient.setQueryData(sessionKey, null);
}

/** Network failures and 5xx are tried again; answers that say no (4xx) are not. */
const refused = (error: unknown) => error instanceof ApiError && error.status >= 400 && error.status < 500;
const retry = (count: number, error: unknown) => count < 2 && !refused(error);

export const queryClient = new QueryClient({
  queryCache: new QueryCache({ onError }),
  mutationCache: new MutationCache({ onError }),
  defaultOptions: {
    // A query that failed tries again by itself every few seconds (and when the browser is back
    // online), so each screen recovers when the server is back (docs/console.md#when-the-server-is-away).
    queries: {
      retry,
      staleTime: 5_000,
      refetchInterval: (query) => (query.state.status === 'error' && !refused(query.state.error) ? 5_000 : false),
      refetchOnReconnect: true,
    },
    mutations: { retry: false },
  },
});
