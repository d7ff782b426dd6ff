import { downloadPlatforms, type DownloadPlatform } from '@chat-site/contract';
import { inAppBrowser, type InAppBrowser } from '@chat-site/contract/in-app';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { isbot } from 'isbot';
import { Type } from 'typebox';
import type { RouteDeps } from '../pipeline/deps.js';
import { HttpError } from '../lib/errors.js';
import { errorResponse, textResponse } from '../lib/schemas.js';
import { isPrimaryHost } from '../lib/host-rule.js';
import { downloadsTotal } from '../lib/metrics.js';
import { apiBase, publicOrigin } from '../lib/origin.js';
import { toWireTime } from '../lib/time.js';
import { getSiteListing } from '../settings/repository.js';
import { pageLanguage } from '../lib/page-language.js';
import { countInApp } from './in-app-counts.js';
import { guideInstead, inAppPageCsp, renderInAppPage } from './in-app-page.js';
import { countDownload } from './repository.js';
import { downloadTarget } from './target.js';
import { firstDownloadToday } from './visitors.js';

const isDownloadPlatform = (text: string): text is DownloadPlatform =>
  (downloadPlatforms as readonly string[]).includes(text);

/** A Location header carries ASCII only: a file named 星聊-5.0.apk goes out percent-encoded, and
 * a relative address is resolved against the API's own. */
function locationOf(target: string, base: string): string {
  try {
    return new URL(target, base).href;
  } catch {
    return encodeURI(target);
  }
}

/**
 * `GET /dl/{os}`: links that never go stale. Each answers 302 to wherever the platform's
 * download is today and counts it for `admin stats`; the redirect is never cached, so every
 * download is counted and a new package takes effect at once.
 */
export const downloadRoutes: FastifyPluginAsyncTypebox<RouteDeps> = async (app, { db, config }) => {
  const schema = {
    operationId: 'downloadApp',
    summary: "Redirect to the platform's download of today, counting it",
    params: Type.Object({ os: Type.String({ maxLength: 32 }) }),
    response: {
      302: {
        type: 'null',
        description: 'To the install package (Location), never cached',
        headers: { location: { type: 'string', description: 'Where the download is today' } },
      },
      200: textResponse(
        'text/html',
        "Inside a chat app's built-in browser that would drop this download: a page that says how to open it " +
          "in the phone's browser (docs/site.md#in-app-browsers)",
      ),
      404: errorResponse('Not a platform, no package published for it, or not offered on the primary domain'),
    },
  };
  /**
   * Counts the download when it is one (docs/public-api.md#stable-download-links): a GET, not from
   * a known crawler or bot (isbot's list; HEAD is link checkers and previews), and the client's
   * first of this platform today.
   */
  async function countIfNew(request: FastifyRequest, os: DownloadPlatform): Promise<void> {
    const userAgent = request.headers['user-agent'] ?? '';
    if (request.method !== 'GET' || isbot(userAgent)) return;
    const day = toWireTime(new Date(), config.timeZone).slice(0, 10);
    if (!(await firstDownloadToday(db.kysely, os, day, { address: request.ip, userAgent }))) return;
    downloadsTotal.inc({ os });
    await countDownload(db.kysely, os, day);
  }

  /** Beside it, whether a chat app's built-in browser asked (docs/site.md#in-app-browsers). */
  async function countInAppVisit(request: FastifyRequest): Promise<void> {
    const userAgent = request.headers['user-agent'] ?? '';
    const inApp = inAppBrowser(userAgent);
    if (request.method !== 'GET' || inApp === undefined || isbot(userAgent)) return;
    await countInApp(db.kysely, inApp, 'visit', toWireTime(new Date(), config.timeZone).slice(0, 10));
  }

  /** The guide instead of a download the app's browser would drop: counted as a guide shown. */
  async function sendGuide(request: FastifyRequest, reply: FastifyReply, os: DownloadPlatform, inApp: InAppBrowser) {
    const day = toWireTime(new Date(), config.timeZone).slice(0, 10);
    await countInApp(db.kysely, inApp, 'guide', day).catch((error: unknown) =>
      request.log.error({ err: error }, 'in-app count failed'),
    );
    const page = renderInAppPage({
      language: pageLanguage(request),
      address: `${publicOrigin(request, config.publicUrl)}/dl/${os}`,
      ios: /iPhone|iPad|iPod/i.test(request.headers['user-agent'] ?? ''),
      product: config.site.productName,
    });
    return reply.header('content-security-policy', inAppPageCsp).type('text/html; charset=utf-8').send(page);
  }

  app.get('/dl/:os', { schema }, async (request, reply) => {
    const os = request.params.os.toLowerCase();
    if (!isDownloadPlatform(os)) {
      throw new HttpError(404, `no download for "${os}"; the platforms are ${downloadPlatforms.join(', ')}`);
    }
    const primaryHost = isPrimaryHost(request.hostname, config.site);
    const base = apiBase(request, config.publicUrl);
    // HarmonyOS NEXT installs from AppGallery only, on every host (docs/site.md#harmonyos-next).
    const target =
      os === 'harmonyos'
        ? (await getSiteListing(db.kysely)).harmonyos_url || undefined
        : await downloadTarget(os, {
            db: db.kysely,
            site: config.site,
            timeZone: config.timeZone,
            apiBase: base,
            primaryHost,
          });
    if (target === undefined) {
      throw new HttpError(
        404,
        os === 'harmonyos'
          ? 'no AppGallery page is set for HarmonyOS NEXT'
          : primaryHost
            ? `only the Android app is offered on ${config.site.primaryDomain}`
            : `no ${os} package is published`,
      );
    }
    await countInAppVisit(request).catch((error: unknown) => request.log.error({ err: error }, 'in-app count failed'));
    reply.header('cache-control', 'no-store').header('vary', 'User-Agent, Accept-Language, Cookie');
    const inApp = inAppBrowser(request.headers['user-agent'] ?? '');
    if (request.method === 'GET' && inApp !== undefined && guideInstead(inApp, os, target)) {
      return sendGuide(request, reply, os, inApp);
    }
    // A failed count must not cost the visitor the download.
    await countIfNew(request, os).catch((error: unknown) => request.log.error({ err: error }, 'download count failed'));
    return reply.redirect(locationOf(target, base), 302);
  });
};
