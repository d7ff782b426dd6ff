/**
 * The installed apps' update checks (docs/releases.md#update-checks): the chat apps' own
 * check, the Tauri updater's and electron-updater's, all answered from the platform's current
 * release. What a platform offers is read once per state of the content (the read cache, made
 * stale by the change feed like every public read); the answer to each client's version is
 * made from it per request, so that every check is counted. The public changelog lists every
 * release in the chat apps' form (changelog.ts, docs/site.md#changelog).
 */
import { defaultLanguage, languageOf, operatingSystems, type OperatingSystem } from '@chat-site/contract';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { RouteDeps } from '../pipeline/deps.js';
import { HttpError } from '../lib/errors.js';
import { isPrimaryHost } from '../lib/host-rule.js';
import { updateChecksTotal, updateOffersTotal } from '../lib/metrics.js';
import { apiBase } from '../lib/origin.js';
import { toWireTime } from '../lib/time.js';
import { appVersionAnswer, latestYml, tauriAnswer, type YmlFile } from './answers.js';
import { changelog } from './changelog.js';
import { checkPathOf, type CheckPath } from './check-path.js';
import { countCheck, publishedVersions, versionGroup } from './check-counts.js';
import { currentOffers, type Offer, type Offers } from './current.js';
import { inShare } from './rollout.js';
import { updateSchemas } from './schemas.js';

const isOperatingSystem = (text: string): text is OperatingSystem =>
  (operatingSystems as readonly string[]).includes(text);

/** Tauri names the Mac "darwin" in its {{target}}. */
const tauriPlatforms: Record<string, OperatingSystem> = { windows: 'windows', mac: 'mac', darwin: 'mac', macos: 'mac' };

const ymlPlatforms: Record<string, OperatingSystem> = { 'latest.yml': 'windows', 'latest-mac.yml': 'mac' };

export const updateRoutes: FastifyPluginAsyncTypebox<RouteDeps> = async (app, { db, config, cache, clock }) => {
  const now = clock ?? (() => new Date());
  /** Counts the check for 数据 (docs/releases.md#who-has-updated); a failed count costs the app
   * nothing but the count. */
  const count = async (request: FastifyRequest, os: OperatingSystem, reported: string): Promise<void> => {
    try {
      const published = JSON.parse(
        await cache.text(`published versions ${os}`, async () =>
          JSON.stringify(await publishedVersions(db.kysely, os)),
        ),
      ) as string[];
      const day = toWireTime(now(), config.timeZone).slice(0, 10);
      const client = { address: request.ip, userAgent: request.headers['user-agent'] ?? '' };
      await countCheck(db.kysely, { os, version: versionGroup(reported, published), day, client });
    } catch (error) {
      request.log.error({ err: error }, 'update check count failed');
    }
  };

  /** The platform's offers as this request's host and address would have /dl/{os} send it. */
  const offersFor = async (request: FastifyRequest, os: OperatingSystem): Promise<Offers | undefined> => {
    const base = apiBase(request, config.publicUrl);
    const primaryHost = isPrimaryHost(request.hostname, config.site);
    const text = await cache.text(`update offer ${os} ${base} ${primaryHost}`, async () => {
      const offers = await currentOffers(os, {
        db: db.kysely,
        site: config.site,
        timeZone: config.timeZone,
        apiBase: base,
        primaryHost,
      });
      return JSON.stringify(offers ?? null);
    });
    return (JSON.parse(text) as Offers | null) ?? undefined;
  };

  /** What this install is offered: during a staged roll-out, by its place in the share. */
  const offerFor = async (request: FastifyRequest, os: OperatingSystem): Promise<Offer | undefined> => {
    const offers = await offersFor(request, os);
    if (offers === undefined) return undefined;
    if (offers.share === null) return offers.offer;
    const install = { address: request.ip, userAgent: request.headers['user-agent'] ?? '' };
    return inShare(offers.share, install) ? offers.offer : (offers.previous ?? undefined);
  };

  app.get('/common/changelog', { schema: updateSchemas.changelog }, async (request, reply) => {
    // Hosted files are named by absolute URLs, so the answer depends on the address asked.
    const base = apiBase(request, config.publicUrl);
    const { lang } = request.query;
    const language = lang === undefined ? undefined : (languageOf(lang) ?? defaultLanguage);
    return cache.send(request, reply, `changelog ${base} ${language ?? ''}`, () =>
      changelog({ db: db.kysely, timeZone: config.timeZone, apiBase: base, appUrl: config.site.appUrl, language }),
    );
  });

  /** The chat apps' check. A platform this server publishes nothing for (harmonyos, updated
   * through AppGallery; linux, web, darwin…) is answered {}, as the family's server answers it. */
  const checkAppVersion = async (request: FastifyRequest, path: CheckPath) => {
    const os = path.os.toLowerCase();
    if (!isOperatingSystem(os)) {
      updateChecksTotal.inc({ os: os === 'harmonyos' ? os : 'other', client: 'app' });
      return {};
    }
    const answer = appVersionAnswer(await offerFor(request, os), os, path.version, config.timeZone);
    updateChecksTotal.inc({ os, client: 'app' });
    await count(request, os, path.version);
    if (answer.app_version !== undefined) updateOffersTotal.inc({ os, client: 'app' });
    return answer;
  };

  /** The Tauri updater's check: 204, its "no update", for a platform without desktop releases. */
  const checkTauri = async (request: FastifyRequest, reply: FastifyReply, path: CheckPath) => {
    const os = tauriPlatforms[path.os.toLowerCase()];
    updateChecksTotal.inc({ os: os ?? 'other', client: 'tauri' });
    if (os === undefined) return reply.code(204).send();
    // Tauri's {{arch}}, when the endpoint in tauri.conf.json passes it (docs/releases.md#update-payloads).
    const { arch } = request.query as { arch?: unknown };
    const answer = tauriAnswer(await offerFor(request, os), path.version, typeof arch === 'string' ? arch : undefined);
    await count(request, os, path.version);
    if (answer === undefined) return reply.code(204).send();
    updateOffersTotal.inc({ os, client: 'tauri' });
    return answer;
  };

  const longParams = { longParams: true } as const;
  app.get('/common/appversion/:os/:version', { schema: updateSchemas.appVersion, config: longParams }, (request) =>
    checkAppVersion(request, request.params),
  );
  app.get('/common/updater/:os/:version', { schema: updateSchemas.tauri, config: longParams }, (request, reply) =>
    checkTauri(request, reply, request.params),
  );
  // A platform or version past the router's limit on a parameter falls through to these, and is
  // answered as above: a version that long is one that cannot be read.
  app.get('/common/appversion/*', async (request, reply) => {
    const path = checkPathOf(request.url, request.routeOptions.url);
    return path === undefined ? reply.callNotFound() : checkAppVersion(request, path);
  });
  app.get('/common/updater/*', async (request, reply) => {
    const path = checkPathOf(request.url, request.routeOptions.url);
    return path === undefined ? reply.callNotFound() : checkTauri(request, reply, path);
  });

  app.get('/common/pcupdater/:file', { schema: updateSchemas.electron }, async (request, reply) => {
    const os = ymlPlatforms[request.params.file];
    if (os === undefined)
      throw new HttpError(404, 'the update files are latest.yml (Windows) and latest-mac.yml (Mac)');
    updateChecksTotal.inc({ os, client: 'electron' });
    // electron-updater places each install in the share itself (docs/releases.md#staged-roll-out).
    const offers = await offersFor(request, os);
    const offer = offers?.offer;
    if (offer === undefined) throw new HttpError(404, `no ${os} release with a version is published`);
    return reply
      .header('content-type', 'text/yaml; charset=utf-8')
      .header('cache-control', 'no-cache')
      .send(latestYml(offer, ymlFiles(offer, os), offers?.share?.percentage));
  });
};

/** electron-updater's files, as electron-builder lists them: the electron payloads, and on the
 * Mac the download after them (the .dmg beside the .zip); without payloads, the download alone.
 * Each needs the SHA-512 only a hosted file has (docs/releases.md#update-payloads). */
function ymlFiles(offer: Offer, os: OperatingSystem): [YmlFile, ...YmlFile[]] {
  const electron = offer.payloads.filter((payload) => payload.role === 'electron');
  const download =
    offer.sha512 === null || offer.size === null ? undefined : { ...offer, sha512: offer.sha512, size: offer.size };
  const [first, ...rest] = electron.map(({ url, sha512, size }) =>
    sha512 === null || size === null ? undefined : { url, sha512, size },
  );
  if (electron.length === 0) {
    if (download !== undefined) return [{ url: download.url, sha512: download.sha512, size: download.size }];
    throw new HttpError(
      404,
      `the ${os} release is not a file this server hosts, so it has no SHA-512 for electron-updater; publish it from an uploaded file`,
    );
  }
  if (first === undefined || rest.includes(undefined)) {
    throw new HttpError(
      404,
      `an electron payload of the ${os} release is an outside address, so it has no SHA-512 for electron-updater; publish it from an uploaded file`,
    );
  }
  const files = [first, ...rest.filter((file) => file !== undefined)] as [YmlFile, ...YmlFile[]];
  if (os === 'mac' && download !== undefined)
    files.push({ url: download.url, sha512: download.sha512, size: download.size });
  return files;
}
