import { downloadPlatforms, type DownloadPlatform } from '@chat-site/contract';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { isbot } from 'isbot';
import { Type } from 'typebox';
import type { RouteDeps } from '../lib/deps.js';
import { HttpError } from '../lib/errors.js';
import { errorResponse } from '../lib/schemas.js';
import { isPrimaryHost } from '../lib/host-rule.js';
import { downloadsTotal } from '../lib/metrics.js';
import { apiBase } from '../lib/origin.js';
import { toWireTime } from '../lib/time.js';
import { getSiteListing } from '../settings/repository.js';
import { countDownload } from './repository.js';
import { downloadTarget } from './target.js';

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
      404: errorResponse('Not a platform, no package published for it, or not offered on the primary domain'),
    },
  };
  app.get('/dl/:os', { schema }, async (request, reply) => {
    const os = request.params.os.toLowerCase();
    if (!isDownloadPlatform(os)) {
      throw new HttpError(404, `no download for "${os}"; the platforms are ${downloadPlatforms.join(', ')}`);
    }
    const primaryHost = isPrimaryHost(request.hostname, config.site);
    const base = apiBase(request, config.publicUrl);
    // HarmonyOS NEXT installs from AppGallery only, on every host (docs/behaviour.md#harmonyos-next).
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
    // HEAD (link checkers, chat apps fetching a preview) is not a download, nor is a known
    // crawler's or bot's GET (isbot's list, docs/behaviour.md#stable-download-links).
    if (request.method === 'GET' && !isbot(request.headers['user-agent'] ?? '')) {
      downloadsTotal.inc({ os });
      const day = toWireTime(new Date(), config.timeZone).slice(0, 10);
      // A failed count must not cost the visitor the download.
      await countDownload(db.kysely, os, day).catch((error: unknown) =>
        request.log.error({ err: error }, 'download count failed'),
      );
    }
    return reply.header('cache-control', 'no-store').redirect(locationOf(target, base), 302);
  });
};
