import {
  readInstallPackages,
  resolveDownloadUrl,
  type CdnSettings,
  type InstallPackageEntry,
} from '@chat-site/contract';
import { downloadBase } from '../download-base';
import { apiUrl, getJson, logFailure } from '../http';

/** The install packages with download URLs ready to use (base address and CDN applied). The
 * call rethrows after logging, as SPEC.md section 8 says. */
export async function getInstallPackages(apiAddr: string, cdn: CdnSettings): Promise<InstallPackageEntry[]> {
  try {
    const entries = readInstallPackages(await getJson(apiUrl(apiAddr, 'common/getInstallPackageAddrs')));
    const base = downloadBase();
    return entries.map((entry) => ({ ...entry, downloadUrl: resolveDownloadUrl(entry.downloadUrl, { base, cdn }) }));
  } catch (error) {
    logFailure('install packages', error);
    throw error;
  }
}
