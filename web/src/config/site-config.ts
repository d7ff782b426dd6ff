import { siteConfigMetaName, type SiteConfig } from '@chat-site/contract';

/**
 * The operator's settings, which the server writes into the page as <meta name="site-config">.
 * Read once: the page never changes them.
 */
function readSiteConfig(): SiteConfig {
  // The build prerenders the landing page in Node, with the settings file the server reads.
  if (import.meta.env.SSR) return JSON.parse(import.meta.env.PRERENDER_SITE_CONFIG as string) as SiteConfig;
  const meta = document.querySelector<HTMLMetaElement>(`meta[name="${siteConfigMetaName}"]`);
  if (meta === null) throw new Error('the page carries no site config; is it served by the server?');
  return JSON.parse(meta.content) as SiteConfig;
}

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
