/**
 * Each platform's lowest supported app version (最低支持版本), set from the console's Releases
 * screen: clients below it are told the update is forced (docs/releases.md#update-checks).
 * Admin only, audited like every release change.
 */
import type { OperatingSystem } from '@chat-site/contract';
import {
  MinVersionBody,
  MinVersionParams,
  MinVersions,
  UpdateStats,
  UpdateStatsQuery,
} from '@chat-site/contract/admin';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { audit } from '../accounts/door.js';
import type { RouteDeps } from '../pipeline/deps.js';
import { badRequest } from '../lib/errors.js';
import { dayBefore } from '../downloads/repository.js';
import { listPackages } from '../packages/repository.js';
import { toWireTime } from '../lib/time.js';
import { otherVersion, publishedVersions, versionsPerDay } from './check-counts.js';
import { getMinVersions, setMinVersion } from './min-versions.js';
import { parseVersion } from './version.js';

export const updateAdminRoutes: FastifyPluginAsyncTypebox<RouteDeps> = async (app, { db, config, clock }) => {
  app.get(
    '/stats/updates',
    {
      schema: {
        operationId: 'getUpdateStats',
        summary: "A platform's installs per day by the version their update checks reported",
        querystring: UpdateStatsQuery,
        response: { 200: UpdateStats },
      },
    },
    async (request) => {
      const { os } = request.query;
      const to = toWireTime(clock?.() ?? new Date(), config.timeZone).slice(0, 10);
      const from = dayBefore(to, request.query.days - 1);
      const [days, published, entries] = await Promise.all([
        versionsPerDay(db.kysely, os, from, to),
        publishedVersions(db.kysely, os),
        listPackages(db.kysely),
      ]);
      const seen = new Set(days.flatMap((day) => Object.keys(day.installs)));
      const versions = [
        ...published.filter((version) => seen.has(version)),
        ...(seen.has(otherVersion) ? [otherVersion] : []),
      ];
      const current = entries.find((entry) => entry.os === os)?.version ?? null;
      return { os, from, to, time_zone: config.timeZone, versions, days, current };
    },
  );

  app.put(
    '/min-versions/:os',
    {
      schema: {
        operationId: 'setMinVersion',
        summary: "Set or clear a platform's lowest supported app version (older clients must update)",
        params: MinVersionParams,
        body: MinVersionBody,
        response: { 200: MinVersions },
      },
    },
    async (request) => {
      const os: OperatingSystem = request.params.os;
      const given = request.body.min_version?.trim() ?? null;
      if (given !== null && parseVersion(given) === undefined) {
        throw badRequest(`body/min_version: ${given} is not a version of dotted numbers (like 5.2.0)`);
      }
      const before = await getMinVersions(db.kysely);
      const after = await setMinVersion(db.kysely, os, given === '' ? null : given);
      await audit(db, request, { action: 'release.min_version', target: `min_version:${os}`, before, after });
      return after;
    },
  );
};
