import { useCallback } from 'react';
import { siteConfig } from '../../config/site-config';
import { useAsync } from '../../lib/use-async';
import { useApi } from '../../lib/api-bootstrap/api-provider';
import { useLanguage } from '../../lib/i18n';
import { getEdgeUrl } from './api/get-edge-url';
import type { DownloadLinks } from './cards';
import { getInstallPackages } from '../../lib/api/get-install-packages';

/** The package list and, when configured, the edge service's Android URL. Failures leave the
 * lists empty: they are logged, never shown. */
export function useDownloadLinks({ edge }: { edge: boolean }): DownloadLinks {
  const api = useApi();
  const apiAddr = api.status === 'ready' ? api.apiAddr : null;
  const cdn = api.status === 'ready' ? api.cdn : null;
  const loadPackages = useCallback(
    // With no address the saved package list may still stand in (lib/last-good.ts).
    () => (cdn === null ? Promise.resolve([]) : getInstallPackages(apiAddr, cdn).catch(() => [])),
    [apiAddr, cdn],
  );
  // Asked again in another language: the notes follow the visitor's (docs/site.md#the-download-screen).
  const language = useLanguage();
  const packages = useAsync(api.status === 'ready' ? loadPackages : null, `${api.status}:${apiAddr ?? ''}:${language}`);
  const edgeServiceUrl = siteConfig.androidEdgeUrl;
  const edgeState = useAsync(
    edge && edgeServiceUrl !== undefined ? () => getEdgeUrl(edgeServiceUrl) : null,
    String(edge),
  );
  return {
    loading: packages.status === 'loading' || packages.status === 'idle',
    packages: packages.status === 'success' ? packages.data : [],
    edgeUrl: edgeState.status === 'success' ? edgeState.data : undefined,
  };
}
