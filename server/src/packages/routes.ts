import { defaultLanguage, InstallPackageList, languageOf, LanguageQuery } from '@chat-site/contract';
import { PackageListBody } from '@chat-site/contract/admin';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { actorOf, audit } from '../accounts/door.js';
import { badRequest } from '../lib/errors.js';
import type { RouteDeps } from '../pipeline/deps.js';
import { apiBase } from '../lib/origin.js';
import { downloadUrlProblem } from '../lib/schemas.js';
import { fromWireTime } from '../lib/time.js';
import {
  listPackages,
  listServedPackages,
  replacePackages,
  toWirePackage,
  UnknownHostedFileError,
  type PackageEntry,
} from './repository.js';

export const packageRoutes: FastifyPluginAsyncTypebox<RouteDeps> = async (app, { db, config, cache }) => {
  app.get(
    '/common/getInstallPackageAddrs',
    {
      schema: {
        operationId: 'listInstallPackages',
        summary: 'The install package of each platform, with absolute download addresses',
        querystring: Type.Object({ lang: LanguageQuery }),
        response: { 200: InstallPackageList },
      },
    },
    async (request, reply) => {
      // Hosted files are named by absolute URLs, so the answer depends on the address asked.
      const base = apiBase(request, config.publicUrl);
      // Asked without `lang`, the answer is as it always was, so a script can send it back (PUT).
      const { lang } = request.query;
      const language = lang === undefined ? undefined : (languageOf(lang) ?? defaultLanguage);
      return cache.send(request, reply, `packages ${base} ${language ?? ''}`, async () =>
        (await listServedPackages(db.kysely)).map((row) => toWirePackage(row, config.timeZone, base, language)),
      );
    },
  );
};

export const packageAdminRoutes: FastifyPluginAsyncTypebox<RouteDeps> = async (app, { db, config }) => {
  app.put(
    '/packages',
    {
      schema: {
        operationId: 'setInstallPackages',
        summary: 'Replace the install package list, one entry per platform',
        body: PackageListBody,
        response: { 200: InstallPackageList },
      },
    },
    async (request) => {
      const seen = new Set<string>();
      const entries: PackageEntry[] = request.body.map((entry, index) => {
        if (seen.has(entry.OS)) throw badRequest(`body/${index}/OS: ${entry.OS} appears more than once`);
        seen.add(entry.OS);
        const urlProblem = downloadUrlProblem(entry.DownloadURL);
        if (urlProblem !== undefined) throw badRequest(`body/${index}/DownloadURL ${urlProblem}`);
        const releasedAt =
          entry.released_at === undefined ? undefined : fromWireTime(entry.released_at, config.timeZone);
        if (entry.released_at !== undefined && releasedAt === undefined) {
          throw badRequest(`body/${index}/released_at: ${entry.released_at} is not a real date and time`);
        }
        return {
          os: entry.OS,
          downloadUrl: entry.DownloadURL,
          version: entry.version,
          size: entry.size,
          sha256: entry.sha256,
          releasedAt,
          releaseNotesUrl: entry.release_notes_url,
          notes: entry.notes,
          minOs: entry.min_os,
        };
      });
      const before = await listPackages(db.kysely);
      try {
        await replacePackages(db.kysely, entries, actorOf(request));
      } catch (error) {
        if (error instanceof UnknownHostedFileError) throw badRequest(error.message);
        throw error;
      }
      const after = await listPackages(db.kysely);
      await audit(db, request, { action: 'packages.set', target: 'packages', before, after });
      const base = apiBase(request, config.publicUrl);
      return (await listServedPackages(db.kysely)).map((row) => toWirePackage(row, config.timeZone, base));
    },
  );
};
