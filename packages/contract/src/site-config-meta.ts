/** Name of the <meta> element that carries the JSON-encoded SiteConfig in the served page. */
export const siteConfigMetaName = 'site-config';
