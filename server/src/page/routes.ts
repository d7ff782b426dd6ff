import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { escapeHtml, fillPrerenderMarkers, siteConfigMetaName, type SiteConfig } from '@chat-site/contract';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { withSmartAppBanner } from '../downloads/smart-app-banner.js';
import type { RouteDeps } from '../lib/deps.js';
import { beforeHeadEnd } from '../lib/head-insert.js';
import { isPrimaryHost } from '../lib/host-rule.js';
import { withSiteHeadTags } from '../reach/head.js';
import { getAppConfig, getRegionDocument } from '../settings/repository.js';
import { pageCsp } from './csp.js';
import { inlineHashes } from './inline-hashes.js';
import { withPrimaryHostMark } from './primary-host.js';

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
  const meta = `<meta name="${siteConfigMetaName}" content="${escapeHtml(JSON.stringify(site))}">`;
  const page = fillPrerenderMarkers(template, site);
  return beforeHeadEnd(page, meta);
}

function readTemplate(webRoot: string, site: SiteConfig): string {
  try {
    return readFileSync(join(webRoot, 'index.html'), 'utf8');
  } catch {
    return placeholderPage(site);
  }
}

export const pageRoutes: FastifyPluginAsync<RouteDeps> = async (app, { db, config, cache }) => {
  const template = readTemplate(config.webRoot, config.site);
  const page = renderPage(template, config.site);
  const inline = inlineHashes(template);
  const handler = async (request: FastifyRequest, reply: FastifyReply) => {
    const [appConfig, region] = await Promise.all([getAppConfig(db.kysely), getRegionDocument(db.kysely)]);
    const primaryHost = isPrimaryHost(request.hostname, config.site);
    reply
      .header('cache-control', 'no-cache')
      .header('content-security-policy', pageCsp(config.site, appConfig, region, inline));
    // The page is compressed once at brotli's best quality, which no answer compressed per request
    // affords; so it must not differ by the raw Host header, or every new Host would cost that
    // again. It differs only on the primary domain; addresses in it are relative unless PUBLIC_URL
    // names the origin (docs/behaviour.md#host-rules).
    return cache.send(
      request,
      reply,
      `page ${primaryHost ? 'primary' : 'other'}`,
      async () =>
        withPrimaryHostMark(
          withSmartAppBanner(withSiteHeadTags(page, config.site, config.publicUrl ?? ''), config.site, primaryHost),
          primaryHost,
        ),
      'text/html; charset=utf-8',
    );
  };
  app.get('/', handler);
  app.get('/index.html', handler);
};
