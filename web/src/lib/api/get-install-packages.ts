import {
  readInstallPackages,
  resolveDownloadUrl,
  type CdnSettings,
  type InstallPackageEntry,
} from '@chat-site/contract';
import { downloadBase } from '../download-base';
import { apiUrl, getJson, logFailure } from '../http';
import { currentLanguage } from '../i18n';
import { packagesCall } from './packages-call';
import { hasStrings, listOf, withLastGood } from '../last-good';

/** The install packages with download URLs ready to use (base address and CDN applied). The
 * call rethrows after logging (docs/public-api.md#errors). */
export async function getInstallPackages(apiAddr: string | null, cdn: CdnSettings): Promise<InstallPackageEntry[]> {
  try {
    // With no answer, the list saved on an earlier visit stands in (see lib/last-good.ts).
    return await withLastGood(
      'install-packages',
      async () => {
        if (apiAddr === null) throw new Error('no API address');
        // Some server builds send this list as bare text that is no JSON: kept as text, then read.
        const entries = readInstallPackages(
          await getJson(apiUrl(apiAddr, packagesCall(currentLanguage())), undefined, true),
        );
        const base = downloadBase();
        return entries.map((entry) => ({
          ...entry,
          downloadUrl: resolveDownloadUrl(entry.downloadUrl, { base, cdn }),
        }));
      },
      listOf(hasStrings<InstallPackageEntry>('os', 'downloadUrl')),
    );
  } catch (error) {
    logFailure('install packages', error);
    throw error;
  }
}
