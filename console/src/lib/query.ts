import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';
import { ApiError, signedOut } from './api';
import { sessionKey } from './session';

/** A session that ends (idle too long, signed out elsewhere, password changed) shows the sign-in
 * screen at the next call, whatever asked. */
function onError(error: unknown): void {
  if (signedOut(error)) queryClient.setQueryData(sessionKey, null);
}

/** Network failures and 5xx are tried again; answers that say no (4xx) are not. */
const retry = (count: number, error: unknown) =>
  count < 2 && !(error instanceof ApiError && error.status >= 400 && error.status < 500);

export const queryClient = new QueryClient({
  queryCache: new QueryCache({ onError }),
  mutationCache: new MutationCache({ onError }),
  defaultOptions: {
    queries: { retry, staleTime: 5_000 },
    mutations: { retry: false },
  },
});
