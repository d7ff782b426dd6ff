import { siteConfigMetaName, type SiteConfig } from '@chat-site/contract';

/**
 * The operator's settings, which the server writes into the page as <meta name="site-config">.
 * Throws when the page carries none. Read once by the site (src/config/site-config.ts) and by the
 * boot script that asks the API before it (src/boot-route.ts).
 */
export function readSiteConfig(): SiteConfig {
  // The build prerenders the landing page in Node, with the settings file the server reads.
  if (import.meta.env.SSR) return JSON.parse(import.meta.env.PRERENDER_SITE_CONFIG as string) as SiteConfig;
  const meta = document.querySelector<HTMLMetaElement>(`meta[name="${siteConfigMetaName}"]`);
  if (meta === null) throw new Error('the page carries no site config; is it served by the server?');
  return JSON.parse(meta.content) as SiteConfig;
}
