/**
 * Each platform's lowest supported app version (最低支持版本), set from the console's Releases
 * screen: clients below it are told the update is forced (docs/releases.md#update-checks).
 * Admin only, audited like every release change.
 */
import { InstallPackage, type OperatingSystem } from '@chat-site/contract';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { audit } from '../accounts/door.js';
import type { RouteDeps } from '../lib/deps.js';
import { badRequest } from '../lib/errors.js';
import { getMinVersions, setMinVersion } from './min-versions.js';
import { parseVersion } from './version.js';

const MinVersions = Type.Record(Type.String(), Type.String(), {
  description: 'The lowest supported version of each platform that has one',
});

export const updateAdminRoutes: FastifyPluginAsyncTypebox<RouteDeps> = async (app, { db }) => {
  app.put(
    '/min-versions/:os',
    {
      schema: {
        operationId: 'setMinVersion',
        summary: "Set or clear a platform's lowest supported app version (older clients must update)",
        params: Type.Object({ os: InstallPackage.properties.OS }),
        body: Type.Object(
          { min_version: Type.Union([Type.String({ minLength: 1, maxLength: 64 }), Type.Null()]) },
          { additionalProperties: false },
        ),
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
