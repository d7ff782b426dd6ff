import type { SiteConfig } from '@chat-site/contract';
import { readSiteConfig } from './read-site-config';

/** The operator's settings, read once: the page never changes them. */
export const siteConfig: SiteConfig = readSiteConfig();

/** The host the build prerenders for (src/app/prerender.tsx): any other than the primary
 * domain, unless it asks for that domain's frame. */
let prerenderHost = '';
export function prerenderForHost(hostname: string): void {
  prerenderHost = hostname;
}

/** The member centre and the Android-only download screen belong to the primary domain. */
export function isPrimaryHost(
  hostname: string = import.meta.env.SSR ? prerenderHost : window.location.hostname,
): boolean {
  const domain = siteConfig.primaryDomain;
  return hostname === domain || hostname === `www.${domain}`;
}
