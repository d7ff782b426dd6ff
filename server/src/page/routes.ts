import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  escapeHtml,
  fillPrerenderMarkers,
  languages,
  pageFileName,
  readBulletinList,
  siteConfigMetaName,
  type Language,
  type SiteConfig,
} from '@chat-site/contract';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { withSmartAppBanner } from '../downloads/smart-app-banner.js';
import type { RouteDeps } from '../pipeline/deps.js';
import { beforeHeadEnd } from '../lib/head-insert.js';
import { isPrimaryHost } from '../lib/host-rule.js';
import { withSiteHeadTags } from '../reach/head.js';
import { getAppConfig, getRegionDocument, getSiteListing } from '../settings/repository.js';
import { addVary } from '../pipeline/read-cache.js';
import { listBulletinPage, toListItem } from '../bulletins/repository.js';
import { earlyRowCount, withEarlyRows } from './early-rows.js';
import { pageCsp } from './csp.js';
import { inlineHashes, type InlineHashes } from './inline-hashes.js';
import { pageLanguage } from '../lib/page-language.js';
import { withListing } from './listing.js';
import { withPrimaryHostMark } from './primary-host.js';
import { textResponse } from '../lib/schemas.js';

/** Shown at / until the site is built: proof that the server runs, with the API's entry points. */
function placeholderPage(site: SiteConfig): string {
  const name = escapeHtml(site.productName);
  return `<!doctype html>
<html lang="zh-CN">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${name}</title></head>
<body><h1>${name}</h1><p>The site is not built yet. The API answers under <a href="/v1/ping">/v1/</a>.</p></body>
</html>
`;
}

/** The page with the operator's settings inside it, so the site needs no request before its
 * first paint, and its prerendered landing page showing the current settings, not the ones it
 * was built with. */
export function renderPage(template: string, site: SiteConfig): string {
  return beforeHeadEnd(fillPrerenderMarkers(template, site), siteConfigMeta(site));
}

/** The operator's settings as the site's components read them (web/src/config/read-site-config.ts). */
export const siteConfigMeta = (site: SiteConfig): string =>
  `<meta name="${siteConfigMetaName}" content="${escapeHtml(JSON.stringify(site))}">`;

function readTemplate(webRoot: string, file: string): string | null {
  try {
    return readFileSync(join(webRoot, file), 'utf8');
  } catch {
    return null;
  }
}

interface LanguagePage {
  page: string;
  /** Of its own inline scripts and styles: the CSP of each language's page allows its own. */
  inline: InlineHashes;
}

/** The page in each language the build prerendered (web/build/prerender.ts). A build without a
 * language's page (or none at all) leaves that language out: it gets the default's page, which
 * the boot script turns off for it (docs/boot.md#boot-sequence). */
function readPages(webRoot: string, site: SiteConfig): Map<Language, LanguagePage> {
  const pages = new Map<Language, LanguagePage>();
  for (const language of languages) {
    const template = readTemplate(webRoot, pageFileName(language));
    if (template !== null) pages.set(language, { page: renderPage(template, site), inline: inlineHashes(template) });
  }
  if (pages.size === 0) {
    const template = placeholderPage(site);
    pages.set(languages[0], { page: renderPage(template, site), inline: inlineHashes(template) });
  }
  return pages;
}

export const pageRoutes: FastifyPluginAsync<RouteDeps> = async (app, { db, config, cache }) => {
  const pages = readPages(config.webRoot, config.site);
  // The announcements screen's first rows, in its frame (page/early-rows.ts), read as the site
  // reads the API's first page. None when the site's API is another server's: its list may differ.
  const withRows = async (page: string, language: Language): Promise<string> => {
    if (config.site.apiAddrs.length > 0) return page;
    const { count, rows } = await listBulletinPage(db.kysely, { index: 1, size: earlyRowCount });
    const items = readBulletinList({ count, list: rows.map((row) => toListItem(row, config.timeZone, language)) });
    return withEarlyRows(page, items, language);
  };
  const handler = async (request: FastifyRequest, reply: FastifyReply) => {
    const primaryHost = isPrimaryHost(request.hostname, config.site);
    // The language: `?lang=`, the visitor's choice (its cookie), Accept-Language, the default
    // (docs/reach.md#languages). A shared cache must key the page by the headers it read.
    const wanted = pageLanguage(request);
    const language = pages.has(wanted) ? wanted : languages[0];
    const { page, inline } = pages.get(language) as LanguagePage;
    // The policy follows the settings it names, so it is made once per state of the content
    // rather than read from the database for every page.
    const csp = await cache.text(`page csp ${language}`, async () => {
      const [appConfig, region] = await Promise.all([getAppConfig(db.kysely), getRegionDocument(db.kysely)]);
      return pageCsp(config.site, appConfig, region, inline);
    });
    reply.header('cache-control', 'no-cache').header('content-security-policy', csp);
    addVary(reply, 'accept-language');
    addVary(reply, 'cookie');
    // The page is compressed once at brotli's best quality, which no answer compressed per request
    // affords; so it must not differ by the raw Host header, or every new Host would cost that
    // again. It differs only on the primary domain; addresses in it are relative unless PUBLIC_URL
    // names the origin (docs/public-api.md#host-rules). One copy per language, for the same reason.
    return cache.send(
      request,
      reply,
      `page ${primaryHost ? 'primary' : 'other'} ${language}`,
      async () =>
        withPrimaryHostMark(
          withSmartAppBanner(
            withSiteHeadTags(
              withListing(await withRows(page, language), await getSiteListing(db.kysely), language),
              config.site,
              config.publicUrl ?? '',
            ),
            config.site,
            primaryHost,
          ),
          primaryHost,
        ),
      'text/html; charset=utf-8',
    );
  };
  const page = (operationId: string) => ({
    schema: {
      operationId,
      summary: "The site's page, in the visitor's language (?lang=, its cookie, Accept-Language)",
      response: { 200: textResponse('text/html', 'The page') },
    },
  });
  app.get('/', page('getPage'), handler);
  app.get('/index.html', page('getIndexPage'), handler);
};
