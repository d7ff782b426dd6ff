import { createContext, use, useEffect, useState, type ReactNode } from 'react';
import { initApi, type ApiConnection } from './init-api';

export type ApiState = { status: 'loading' } | ({ status: 'ready' } & ApiConnection);

const ApiContext = createContext<ApiState>({ status: 'loading' });

// One initialisation per page load, shared by every screen the visitor moves through.
let started: Promise<ApiConnection> | null = null;

export function ApiProvider({ children }: { children: ReactNode }) {
  const [state, setState] = useState<ApiState>({ status: 'loading' });
  useEffect(() => {
    started ??= initApi();
    let current = true;
    void started.then((connection) => current && setState({ status: 'ready', ...connection }));
    return () => {
      current = false;
    };
  }, []);
  return <ApiContext value={state}>{children}</ApiContext>;
}

/** The API connection; screens wait for `ready` before they fetch anything. */
export function useApi(): ApiState {
  return use(ApiContext);
}
