/**
 * An announcement's revisions: list them, read one, and write one back as a normal save (which
 * is itself a revision, and names the version it started from like any save). See
 * docs/console.md#revisions.
 */
import {
  AdminBulletin,
  IdParams,
  Revision,
  RevisionList,
  RevisionParams,
  RevisionRestoreBody,
  type LanguageVersions,
  type RevisionSummary,
} from '@chat-site/contract/admin';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { actorOf, audit } from '../accounts/door.js';
import type { RouteDeps } from '../pipeline/deps.js';
import { notFound } from '../lib/errors.js';
import { errorResponse } from '../lib/schemas.js';
import { toWireTime } from '../lib/time.js';
import type { BulletinRevisionRow } from '../db/schema.js';
import { Conflict, conflictAnswer, expectedVersion } from './admin-routes.js';
import { languageVersions, toAdminBulletin } from './admin-view.js';
import { findBulletin } from './repository.js';
import { findRevision, listRevisions, patchOf, saveWithRevision } from './revisions.js';

const editor = { access: 'editor' } as const;
const missing = errorResponse('No announcement has this id, or it has no such revision');

export const revisionRoutes: FastifyPluginAsyncTypebox<RouteDeps> = async (app, { db, config }) => {
  const zone = config.timeZone;
  const summary = (
    row: Omit<BulletinRevisionRow, 'bulletin_id' | 'content' | keyof LanguageVersions>,
  ): RevisionSummary => ({
    id: row.id,
    version: Number(row.version),
    title: row.title,
    topup: row.pinned === 1 ? 1 : 0,
    state: row.state,
    publish_at: toWireTime(row.publish_at, zone),
    action: row.action,
    restored_from: row.restored_from === null ? null : Number(row.restored_from),
    by: row.actor,
    at: toWireTime(row.at, zone),
  });
  const revisionOf = async (id: number, revision: number) => {
    const row = (await findBulletin(db.kysely, id)) && (await findRevision(db.kysely, id, revision));
    if (row === undefined) throw notFound('revision');
    return row;
  };

  app.get(
    '/bulletins/:id/revisions',
    {
      config: editor,
      schema: {
        operationId: 'listBulletinRevisions',
        summary: 'Every saved revision of an announcement, newest first, without their text',
        params: IdParams,
        response: {
          200: RevisionList,
          404: errorResponse('No announcement has this id'),
        },
      },
    },
    async (request) => {
      if ((await findBulletin(db.kysely, request.params.id)) === undefined) throw notFound('announcement');
      return { list: (await listRevisions(db.kysely, request.params.id)).map(summary) };
    },
  );

  app.get(
    '/bulletins/:id/revisions/:revision',
    {
      config: editor,
      schema: {
        operationId: 'getBulletinRevision',
        summary: 'One revision of an announcement, with its text',
        params: RevisionParams,
        response: { 200: Revision, 404: missing },
      },
    },
    async (request) => {
      const row = await revisionOf(request.params.id, request.params.revision);
      return { ...summary(row), content: row.content, ...languageVersions(row) };
    },
  );

  app.post(
    '/bulletins/:id/revisions/:revision/restore',
    {
      config: editor,
      schema: {
        operationId: 'restoreBulletinRevision',
        summary: 'Write a revision back as a save, from the version named by If-Match or body/version',
        params: RevisionParams,
        body: RevisionRestoreBody,
        response: {
          200: AdminBulletin,
          404: missing,
          409: Conflict,
        },
      },
    },
    async (request, reply) => {
      const { id, revision } = request.params;
      const expected = expectedVersion(request.headers['if-match'], request.body.version);
      const row = await revisionOf(id, revision);
      const before = await findBulletin(db.kysely, id);
      const origin = { actor: actorOf(request), action: 'restore', restoredFrom: row.id } as const;
      const result = await saveWithRevision(db.kysely, id, patchOf(row), expected, origin);
      const now = await findBulletin(db.kysely, id);
      if (result === 'missing' || now === undefined || before === undefined) throw notFound('announcement');
      const current = toAdminBulletin(now, zone);
      if (result === 'conflict') {
        return reply.status(409).send(await conflictAnswer(db.kysely, expected, current));
      }
      await audit(db, request, {
        action: 'bulletin.revision.restore',
        target: id,
        before: toAdminBulletin(before, zone),
        // The revision's version, which the console's history shows (第 N 版), names it in the log.
        after: { ...current, restored_from: row.id, restored_version: Number(row.version) },
      });
      return reply.header('etag', `"${current.version}"`).send(current);
    },
  );
};
