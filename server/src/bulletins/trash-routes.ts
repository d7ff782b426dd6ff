/**
 * The trash of announcements: what was deleted in the last 30 days, and purging one early.
 * Bringing one back is POST /bulletins/{id}/restore (admin-routes.ts); purging by age is the
 * schedule check's (schedule.ts). See docs/console.md#trash.
 */
import { IdParams, NoContent, TrashPage, TrashQuery } from '@chat-site/contract/admin';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { audit } from '../accounts/door.js';
import type { RouteDeps } from '../pipeline/deps.js';
import { notFound } from '../lib/errors.js';
import { errorResponse } from '../lib/schemas.js';
import { toWireTime } from '../lib/time.js';
import { toAdminBulletin } from './admin-view.js';
import { purgeBulletin, trashPage, trashWindowMs } from './trash.js';

const editor = { access: 'editor' } as const;

export const trashRoutes: FastifyPluginAsyncTypebox<RouteDeps> = async (app, { db, config }) => {
  const zone = config.timeZone;

  app.get(
    '/bulletins/trash',
    {
      config: editor,
      schema: {
        operationId: 'listBulletinTrash',
        summary: 'Announcements deleted in the last 30 days, most recently deleted first',
        querystring: TrashQuery,
        response: { 200: TrashPage },
      },
    },
    async (request) => {
      const page = await trashPage(db.kysely, { index: request.query.page_index, size: request.query.page_size });
      const list = page.rows.map((row) => {
        const deletedAt = row.deleted_at ?? '';
        const purgeAt = new Date(Date.parse(deletedAt) + trashWindowMs).toISOString();
        return {
          ...toAdminBulletin(row, zone),
          deleted_at: toWireTime(deletedAt, zone),
          purge_at: toWireTime(purgeAt, zone),
        };
      });
      return { count: page.count, list };
    },
  );

  app.delete(
    '/bulletins/trash/:id',
    {
      config: editor,
      schema: {
        operationId: 'purgeBulletin',
        summary: 'Purge an announcement in the trash now, with its revisions; this cannot be undone',
        params: IdParams,
        response: { 204: NoContent, 404: errorResponse('No announcement with this id is in the trash') },
      },
    },
    async (request, reply) => {
      const row = await purgeBulletin(db.kysely, request.params.id);
      if (row === undefined) throw notFound('deleted announcement');
      await audit(db, request, { action: 'bulletin.purge', target: row.id, before: toAdminBulletin(row, zone) });
      return reply.status(204).send(null);
    },
  );
};
