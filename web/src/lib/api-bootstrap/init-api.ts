import { readAppConfig, readRegionDocument, type CdnSettings, type RegionAddrs } from '@chat-site/contract';
import { timeouts } from '../../config/constants';
import { siteConfig } from '../../config/site-config';
import { knownApiAddrs, lastApiAddr, uniqueAddrs as unique } from '../api-addrs';
import { apiCalls } from '../api-calls';
import { apiUrl, getJson, logFailure, ping } from '../http';
import { readStringList, storageKeys, writeString, writeStringList } from '../storage';

export interface ApiConnection {
  /** The API address in use, without a trailing slash; null when none answered. */
  apiAddr: string | null;
  cdn: CdnSettings;
}

const cdnOff: CdnSettings = { useCdn: false, bucketUrl: '' };

/** The first address whose ping answers 200, or null. All are pinged at once. */
async function firstToAnswer(addrs: readonly string[]): Promise<string | null> {
  if (addrs.length === 0) return null;
  return new Promise((resolve) => {
    let pending = addrs.length;
    for (const addr of addrs) {
      void ping(addr).then((ok) => {
        if (ok) resolve(addr);
        else if (--pending === 0) resolve(null);
      });
    }
  });
}

/** Every region document's addresses, merged; documents that fail are skipped. */
async function fetchRegionDocuments(allocators: readonly string[]): Promise<RegionAddrs> {
  const answers = await Promise.allSettled(allocators.map((url) => getJson(url, timeouts.regionDocumentMs)));
  const documents = answers.flatMap((answer) =>
    answer.status === 'fulfilled' ? [readRegionDocument(answer.value)] : [],
  );
  return {
    apiAddrs: unique(documents.flatMap((document) => document.apiAddrs)),
    allocatorAddrs: unique(documents.flatMap((document) => document.allocatorAddrs)),
  };
}

function knownAllocators(): string[] {
  return unique([...readStringList(storageKeys.allocatorAddrs), ...siteConfig.regionDocumentUrls]);
}

function remember(addrs: RegionAddrs): void {
  if (addrs.apiAddrs.length > 0) writeStringList(storageKeys.apiAddrs, addrs.apiAddrs);
  if (addrs.allocatorAddrs.length > 0) writeStringList(storageKeys.allocatorAddrs, addrs.allocatorAddrs);
}

/** Picks an API address as docs/public-api.md#api-address-failover orders: the last one used,
 * then every known one at once, then the addresses the region documents name. */
async function chooseApiAddr(): Promise<string | null> {
  const known = knownApiAddrs(siteConfig.apiAddrs);
  const last = lastApiAddr();
  if (last !== null && (await ping(last))) return last;

  const fromKnown = await firstToAnswer(known.filter((addr) => addr !== last));
  if (fromKnown !== null) return fromKnown;

  const region = await fetchRegionDocuments(knownAllocators());
  remember(region);
  return firstToAnswer(region.apiAddrs);
}

async function loadCdnSettings(apiAddr: string): Promise<CdnSettings> {
  try {
    return readAppConfig(await getJson(apiUrl(apiAddr, apiCalls.appConfig)));
  } catch (error) {
    logFailure('app config failed, CDN off', error);
    return cdnOff;
  }
}

/** Initialises the API connection. Never rejects: with no address it ends as done with null. */
export async function initApi(): Promise<ApiConnection> {
  try {
    const apiAddr = await chooseApiAddr();
    if (apiAddr === null) {
      logFailure('API initialisation', 'no API address answered');
      return { apiAddr: null, cdn: cdnOff };
    }
    writeString(storageKeys.lastApiAddr, apiAddr);
    writeStringList(storageKeys.apiAddrs, unique([apiAddr, ...readStringList(storageKeys.apiAddrs)]));
    void fetchRegionDocuments(knownAllocators()).then(remember, (error: unknown) =>
      logFailure('region refresh', error),
    );
    return { apiAddr, cdn: await loadCdnSettings(apiAddr) };
  } catch (error) {
    logFailure('API initialisation', error);
    return { apiAddr: null, cdn: cdnOff };
  }
}
