/**
 * The console's releases (docs/behaviour.md#releases): one card per platform with what the site
 * offers now and every release before it, publishing a new release from a hosted file or an
 * outside URL, and making an earlier one current again. Admin only.
 */
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { operatingSystems, readAppConfig, resolveDownloadUrl, type OperatingSystem } from '@chat-site/contract';
import {
  IdParams,
  Release,
  ReleaseBody,
  ReleaseCards,
  type CurrentRelease,
  type PayloadArch,
  type PayloadRole,
  type ReleasePayload,
} from '@chat-site/contract/admin';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { actorOf, audit } from '../accounts/door.js';
import type { InstallPackageRow, ReleasePayloadRow, ReleaseRow } from '../db/schema.js';
import { findFile } from '../files/repository.js';
import type { RouteDeps } from '../pipeline/deps.js';
import { badRequest, HttpError, notFound } from '../lib/errors.js';
import { apiBase } from '../lib/origin.js';
import { downloadUrlProblem, errorResponse } from '../lib/schemas.js';
import { fromWireTime, nowIso, toWireTime } from '../lib/time.js';
import { getAppConfig } from '../settings/repository.js';
import { storageFor, type FileStorage } from '../storage/index.js';
import { getMinVersions } from '../updates/min-versions.js';
import { listRollouts } from '../updates/rollout.js';
import { toWireRollout } from '../updates/rollout-routes.js';
import { ApkVersionError, readApkVersion, type ApkVersion } from './apk-version.js';
import {
  extensionOfName,
  findRelease,
  listReleases,
  makeCurrent,
  NothingToRollOutFromError,
  platformExtensions,
  publishRelease,
  type NewRelease,
} from './releases.js';
import { listPackages, toWirePackage, UnknownHostedFileError } from './repository.js';
import type { MinisignKey } from '../lib/minisign.js';
import { checkedSignature, type SignedPackage } from './signature-check.js';
import { listPayloads } from './payload-rows.js';
import { checkedPayloads, lastSegment } from './payloads.js';

export const releaseAdminRoutes: FastifyPluginAsyncTypebox<RouteDeps> = async (app, { db, config }) => {
  const storage = storageFor(config.storage);
  const zone = config.timeZone;
  const toRelease = (row: ReleaseRow, currentIds: Set<number>, payloads: ReleasePayloadRow[]): Release => ({
    id: row.id,
    os: row.os as OperatingSystem,
    version: row.version,
    notes: row.notes,
    notes_tw: row.notes_tw,
    notes_tw_by_hand: Number(row.notes_tw_by_hand) === 1,
    notes_en: row.notes_en,
    release_notes_url: row.release_notes_url,
    released_at: row.released_at === null ? null : toWireTime(row.released_at, zone),
    size: row.size === null ? null : Number(row.size),
    sha256: row.sha256,
    file_key: row.file_key,
    download_url: row.download_url,
    min_os: row.min_os,
    is_force: Number(row.is_force) === 1,
    signature: row.signature,
    payloads: payloads.filter((payload) => payload.release_id === row.id).map(toWirePayload),
    created_by: row.created_by,
    created_at: toWireTime(row.created_at, zone),
    current: currentIds.has(row.id),
  });

  app.get(
    '/releases',
    {
      schema: {
        operationId: 'listReleases',
        summary: "Each platform's current release and its history",
        response: { 200: ReleaseCards },
      },
    },
    async (request) => {
      const [entries, releases, appConfig, minVersions, rollouts, payloads] = await Promise.all([
        listPackages(db.kysely),
        listReleases(db.kysely),
        getAppConfig(db.kysely),
        getMinVersions(db.kysely),
        listRollouts(db.kysely),
        listPayloads(db.kysely),
      ]);
      const base = apiBase(request, config.publicUrl);
      const cdn = readAppConfig(appConfig);
      const currentIds = new Set(entries.flatMap((entry) => (entry.release_id === null ? [] : [entry.release_id])));
      const byId = new Map(releases.map((row) => [row.id, row]));
      const platforms = await Promise.all(
        operatingSystems.map(async (os) => {
          const entry = entries.find((row) => row.os === os);
          const current =
            entry === undefined
              ? null
              : currentOf(entry, byId.get(entry.release_id ?? -1), { base, zone, cdn, config });
          const history = releases.filter((row) => row.os === os).map((row) => toRelease(row, currentIds, payloads));
          const rollout = rollouts.find((row) => row.os === os);
          const staged = rollout === undefined ? null : await toWireRollout(db.kysely, rollout, zone);
          return { os, current, history, min_version: minVersions[os] ?? null, rollout: staged };
        }),
      );
      return { platforms };
    },
  );

  app.post(
    '/releases',
    {
      schema: {
        operationId: 'publishRelease',
        summary: 'Publish a release of one platform: a hosted file or an address, made current',
        body: ReleaseBody,
        response: { 201: Release },
      },
    },
    async (request, reply) => {
      const body = request.body;
      const release = await releaseFrom(body, { db, storage, zone, tauriKey: config.tauriPublicKey });
      const before = (await listPackages(db.kysely)).find((row) => row.os === body.os);
      let row: ReleaseRow;
      try {
        row = await publishRelease(db.kysely, { ...release, createdBy: actorOf(request) });
      } catch (error) {
        if (error instanceof UnknownHostedFileError) throw badRequest(`body/file_key: ${error.message}`);
        if (error instanceof NothingToRollOutFromError) {
          throw badRequest(`body/rollout_percentage: ${error.message}; publish the first release to everyone`);
        }
        throw error;
      }
      const payloads = await listPayloads(db.kysely, [row.id]);
      // The share is said in the log's sentence (docs/console.md#the-audit-log), and the payloads
      // by role, architecture and file.
      const after = {
        ...row,
        rollout_percentage: body.rollout_percentage ?? 100,
        payloads: payloads.map(({ role, arch, download_url }) => ({ role, arch, download_url })),
      };
      await audit(db, request, { action: 'release.publish', target: `release:${row.id}`, before, after });
      return reply.status(201).send(toRelease(row, new Set([row.id]), payloads));
    },
  );

  app.post(
    '/releases/:id/rollback',
    {
      schema: {
        operationId: 'rollBackRelease',
        summary: 'Make an earlier release current again',
        params: IdParams,
        response: {
          200: Release,
          404: errorResponse('No release has this id'),
          409: errorResponse("The release's hosted file was deleted; it cannot be served again"),
        },
      },
    },
    async (request) => {
      const target = await findRelease(db.kysely, request.params.id);
      const before = (await listPackages(db.kysely)).find((row) => row.os === target?.os);
      let row: ReleaseRow | undefined;
      try {
        row = await makeCurrent(db.kysely, request.params.id);
      } catch (error) {
        if (error instanceof UnknownHostedFileError) {
          throw new HttpError(409, `release ${request.params.id} cannot be served again: its file was deleted`, {
            code: 'file_deleted',
          });
        }
        throw error;
      }
      if (row === undefined) throw notFound('release');
      await audit(db, request, { action: 'release.rollback', target: `release:${row.id}`, before, after: row });
      return toRelease(row, new Set([row.id]), await listPayloads(db.kysely, [row.id]));
    },
  );
};

interface CurrentContext {
  base: string;
  zone: string;
  cdn: ReturnType<typeof readAppConfig>;
  config: RouteDeps['config'];
}

/** What the site offers now for a platform, and from where: the CDN rewrites hosted files exactly
 * as the site and /dl do (docs/public-api.md#cdn-rewriting). */
function currentOf(
  entry: InstallPackageRow,
  release: ReleaseRow | undefined,
  { base, zone, cdn, config }: CurrentContext,
): CurrentRelease {
  const wire = toWirePackage(entry, zone, base);
  const hosted = /^file\/preview\//.test(entry.download_url);
  const servedUrl = resolveDownloadUrl(wire.DownloadURL, { base: config.site.appUrl, cdn }) || wire.DownloadURL;
  return {
    release_id: entry.release_id,
    version: entry.version,
    size: entry.size === null ? null : Number(entry.size),
    sha256: entry.sha256,
    released_at: wire.released_at ?? null,
    release_notes_url: entry.release_notes_url,
    notes: release?.notes ?? null,
    min_os: release?.min_os ?? null,
    download_url: entry.download_url,
    served_url: servedUrl,
    served_from: hosted ? (cdn.useCdn ? 'cdn' : 'hosted') : 'outside',
  };
}

interface ReleaseContext {
  db: RouteDeps['db'];
  storage: FileStorage;
  zone: string;
  tauriKey: MinisignKey | undefined;
}

/** Checks a publish request and turns it into a release: the package from exactly one place, a
 * file fit for the platform, an APK's version from its own manifest. */
async function releaseFrom(
  body: ReleaseBody,
  { db, storage, zone, tauriKey }: ReleaseContext,
): Promise<Omit<NewRelease, 'createdBy'>> {
  if ((body.file_key === undefined) === (body.url === undefined)) {
    throw badRequest(
      'body: give the package as file_key (an uploaded file) or as url (an outside address), one of them',
    );
  }
  // Now, to the second: the wire carries no more.
  const releasedAt =
    body.released_at === undefined ? nowIso().replace(/\.\d+Z$/, '.000Z') : fromWireTime(body.released_at, zone);
  if (releasedAt === undefined) throw badRequest(`body/released_at: ${body.released_at} is not a real date and time`);
  const common = {
    os: body.os,
    notes: body.notes === undefined || body.notes.trim() === '' ? undefined : body.notes,
    notesTw: body.notes_tw,
    notesEn: body.notes_en,
    releaseNotesUrl: body.release_notes_url,
    releasedAt,
    minOs: body.min_os,
    isForce: body.force_update,
    rolloutPercentage: body.rollout_percentage,
  };
  const given = body.signature === undefined || body.signature.trim() === '' ? undefined : body.signature;
  const signed = (pkg: SignedPackage) => (given === undefined ? undefined : checkedSignature(given, pkg, tauriKey));
  const payloadsOf = (version: string | undefined) =>
    checkedPayloads(body.os, body.payloads ?? [], { db: db.kysely, storage, tauriKey, version });
  if (body.url !== undefined) {
    // The package list's rule, and absolute: a hosted file comes as file_key, with its own facts.
    const problem =
      downloadUrlProblem(body.url) ?? (/^https?:\/\//i.test(body.url) ? undefined : 'must be an http(s) URL');
    if (problem !== undefined) throw badRequest(`body/url: ${problem}`);
    // The server never fetches an outside address: its bytes cannot be checked, the rest can.
    const name = lastSegment(new URL(body.url).pathname);
    return {
      ...common,
      signature: await signed({ name, version: body.version, open: undefined }),
      payloads: await payloadsOf(body.version),
      downloadUrl: body.url,
      version: body.version,
      size: body.size,
      sha256: body.sha256,
    };
  }
  if (body.size !== undefined || body.sha256 !== undefined) {
    throw badRequest('body: size and sha256 are those of the uploaded file; send them only with url');
  }
  const file = await findFile(db.kysely, body.file_key ?? '');
  if (file === undefined) throw badRequest(`body/file_key: there is no hosted file ${body.file_key}; upload it first`);
  const extension = extensionOfName(file.name);
  const allowed = platformExtensions[body.os];
  if (!allowed.includes(extension)) {
    throw badRequest(
      `body/file_key: ${file.name} is not a ${body.os} package (${allowed.map((e) => `.${e}`).join(', ')})`,
    );
  }
  const version = extension === 'apk' ? await apkVersionOf(storage, file.key, file.name, body.version) : body.version;
  const signature = await signed({ name: file.name, version, open: () => storage.open(file.key) });
  const payloads = await payloadsOf(version);
  return { ...common, signature, payloads, downloadUrl: `file/preview/${file.key}`, version };
}

/** The version an APK release carries: its manifest's versionName. A different version given is
 * refused; an APK whose manifest cannot be read needs the version given
 * (docs/releases.md#apk-versions). */
async function apkVersionOf(
  storage: FileStorage,
  key: string,
  name: string,
  given: string | undefined,
): Promise<string | undefined> {
  let manifest: ApkVersion;
  try {
    manifest = await withLocalFile(storage, key, readApkVersion);
  } catch (error) {
    if (!(error instanceof ApkVersionError)) throw error;
    if (given !== undefined) return given;
    throw badRequest(`body/version: ${error.message.replaceAll(/\S*\/[^\s:]*/g, name)}; give the version`);
  }
  if (given !== undefined && given !== manifest.versionName) {
    throw badRequest(
      `body/version: ${given} is not the version of ${name}, whose manifest says ${manifest.versionName} ` +
        `(versionCode ${manifest.versionCode}, ${manifest.packageName}); leave version out to take the APK's own`,
      // The console says what the APK says and fills it in (docs/console.md#releases-settings-and-numbers).
      { found: manifest.versionName },
    );
  }
  if (manifest.versionName.length > 64) {
    throw badRequest(`body/version: the versionName of ${name} is longer than 64 characters; give the version`);
  }
  return manifest.versionName;
}

/** Runs `read` on a file of the storage as a file on this machine: in place for the directory
 * store, else on a temporary copy that is removed afterwards. */
async function withLocalFile<T>(storage: FileStorage, key: string, read: (path: string) => Promise<T>): Promise<T> {
  if (storage.localPath !== undefined) return read(storage.localPath(key));
  const dir = await mkdtemp(join(tmpdir(), 'chat-site-apk-'));
  try {
    const body = await storage.open(key);
    if (body === undefined) throw new ApkVersionError(`the file ${key} is missing from the storage`);
    const path = join(dir, 'package.apk');
    await pipeline(body, createWriteStream(path));
    return await read(path);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

function toWirePayload(row: ReleasePayloadRow): ReleasePayload {
  return {
    role: row.role as PayloadRole,
    arch: row.arch as PayloadArch | null,
    file_key: row.file_key,
    download_url: row.download_url,
    size: row.size === null ? null : Number(row.size),
    sha256: row.sha256,
    sha512: row.sha512,
    signature: row.signature,
  };
}
