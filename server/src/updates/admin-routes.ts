/**
 * Each platform's lowest supported app version (最低支持版本), set from the console's Releases
 * screen: clients below it are told the update is forced (docs/releases.md#update-checks).
 * Admin only, audited like every release change.
 */
import type { OperatingSystem } from '@chat-site/contract';
import { MinVersionBody, MinVersionParams, MinVersions } from '@chat-site/contract/admin';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { audit } from '../accounts/door.js';
import type { RouteDeps } from '../pipeline/deps.js';
import { badRequest } from '../lib/errors.js';
import { getMinVersions, setMinVersion } from './min-versions.js';
import { parseVersion } from './version.js';

export const updateAdminRoutes: FastifyPluginAsyncTypebox<RouteDeps> = async (app, { db }) => {
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
