import { createContext, startTransition, use, useEffect, useState, type ReactNode } from 'react';
import { onUnreachable } from '../http';
import { initApi, type ApiConnection } from './init-api';

export type ApiState = { status: 'loading' } | ({ status: 'ready' } & ApiConnection);

const ApiContext = createContext<ApiState>({ status: 'loading' });

/** One run of the initialisation (docs/public-api.md#api-address-failover). */
interface Attempt {
  done: Promise<ApiConnection>;
  /** Its result, once it has one. */
  result?: ApiConnection;
  /** A call to its address later got no answer at all (refused, reset, timed out). */
  lost?: boolean;
}

// Shared by every screen the visitor moves through: at most one attempt runs at a time, and a
// successful one is kept for the rest of the page load.
let attempt: Attempt | null = null;

function startAttempt(): Attempt {
  const next: Attempt = { done: initApi() };
  // initApi never rejects. This handler is attached first, so `result` is set before any
  // provider hears of the outcome.
  void next.done.then((connection) => {
    next.result = connection;
  });
  attempt = next;
  return next;
}

/** A new attempt is due when none ran yet, when the last one ended with no address, or when its
 * address has since stopped answering. An attempt still running is never replaced. */
function attemptDue(current: Attempt | null): boolean {
  if (current === null) return true;
  if (current.result === undefined) return false;
  return current.result.apiAddr === null || current.lost === true;
}

const readyState = (connection: ApiConnection): ApiState => ({ status: 'ready', ...connection });

/**
 * Runs the initialisation once, and again on the next route change (hash navigation) after one
 * that found no address or whose address later died, so the site recovers without a reload.
 * While a new attempt runs the screens see `loading`; when it ends they see a new `ready` state
 * and fetch again.
 */
export function ApiProvider({ children }: { children: ReactNode }) {
  const [state, setState] = useState<ApiState>(() =>
    attempt?.result !== undefined && !attemptDue(attempt) ? readyState(attempt.result) : { status: 'loading' },
  );
  useEffect(() => {
    let mounted = true;
    let followed: Attempt | null = null;
    const follow = (next: Attempt) => {
      followed = next;
      if (next.result === undefined) setState((old) => (old.status === 'loading' ? old : { status: 'loading' }));
      void next.done.then((connection) => {
        if (mounted && followed === next) startTransition(() => setState(readyState(connection)));
      });
    };
    follow(attemptDue(attempt) ? startAttempt() : (attempt as Attempt));

    const onRouteChange = () => {
      if (attemptDue(attempt)) follow(startAttempt());
    };
    const stopWatching = onUnreachable((url) => {
      const apiAddr = attempt?.result?.apiAddr;
      if (attempt !== null && apiAddr != null && url.startsWith(`${apiAddr}/`)) attempt.lost = true;
    });
    window.addEventListener('hashchange', onRouteChange);
    return () => {
      mounted = false;
      stopWatching();
      window.removeEventListener('hashchange', onRouteChange);
    };
  }, []);
  return <ApiContext value={state}>{children}</ApiContext>;
}

/** The API connection; screens wait for `ready` before they fetch anything. */
export function useApi(): ApiState {
  return use(ApiContext);
}

/** A connection known in advance, with no initialisation: for a page served by the API itself
 * that shows the site's components (the operator console's preview). */
export function FixedApiProvider({ connection, children }: { connection: ApiConnection; children: ReactNode }) {
  return <ApiContext value={readyState(connection)}>{children}</ApiContext>;
}
