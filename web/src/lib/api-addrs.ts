import { readString, readStringList, storageKeys } from './storage';

/**
 * The API addresses to try, in the order docs/public-api.md#api-address-failover gives: the last one
 * that answered, then every known one. The site's script (lib/api-bootstrap/init-api.ts)
 * and the boot script that asks before it (src/boot-route.ts) both start from here.
 */

/** `items` without trailing slashes, each once. */
export const uniqueAddrs = (items: readonly string[]) => [...new Set(items.map((item) => item.replace(/\/+$/, '')))];

/** The address that answered last visit, if any. */
export const lastApiAddr = (): string | null => readString(storageKeys.lastApiAddr);

/** The addresses stored from earlier visits, then the configured ones (the page's own origin
 * when none is configured). */
export const knownApiAddrs = (configured: readonly string[]): string[] =>
  uniqueAddrs([...readStringList(storageKeys.apiAddrs), ...(configured.length > 0 ? configured : [location.origin])]);
