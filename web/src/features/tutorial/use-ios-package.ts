import { useCallback } from 'react';
import { getInstallPackages } from '../../lib/api/get-install-packages';
import { useAsync } from '../../lib/use-async';
import { useApi } from '../../lib/api-bootstrap/api-provider';

/** The iOS package address the tutorial's 'start download' points at; undefined until known or
 * when the package list failed (logged only). */
export function useIosPackageUrl(): string | undefined {
  const api = useApi();
  const ready = api.status === 'ready' ? api : null;
  const load = useCallback(async () => {
    if (ready?.apiAddr == null) return undefined;
    const packages = await getInstallPackages(ready.apiAddr, ready.cdn).catch(() => []);
    return packages.find((entry) => entry.os === 'ios')?.downloadUrl;
  }, [ready]);
  const state = useAsync(ready === null ? null : load, ready === null ? 'loading' : (ready.apiAddr ?? 'none'));
  return state.status === 'success' ? state.data : undefined;
}
