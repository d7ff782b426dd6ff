/**
 * A copy of an announcement to start a new one from: always a draft, its title marked as a
 * copy, its end times and schedule left behind (docs/console.md#row-actions).
 */
import { BulletinCreated, IdParams } from '@chat-site/contract/admin';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { actorOf, audit } from '../accounts/door.js';
import type { RouteDeps } from '../pipeline/deps.js';
import { notFound } from '../lib/errors.js';
import { errorResponse } from '../lib/schemas.js';
import { toAdminBulletin } from './admin-view.js';
import { findBulletin } from './repository.js';
import { createWithRevision } from './revisions.js';

/** What marks the copy's title; the title keeps within its 200 characters. */
const copyMark = '（副本）';
const titleLimit = 200;

export const copyTitle = (title: string) => `${[...title].slice(0, titleLimit - copyMark.length).join('')}${copyMark}`;

export const bulletinDuplicateRoute: FastifyPluginAsyncTypebox<RouteDeps> = async (app, { db, config }) => {
  app.post(
    '/bulletins/:id/duplicate',
    {
      config: { access: 'editor' },
      schema: {
        operationId: 'duplicateBulletin',
        summary: 'Copy an announcement into a new draft whose title is marked as a copy',
        params: IdParams,
        response: {
          201: BulletinCreated,
          404: errorResponse('No announcement has this id'),
        },
      },
    },
    async (request, reply) => {
      const original = await findBulletin(db.kysely, request.params.id);
      if (original === undefined) throw notFound('announcement');
      const copy = {
        title: copyTitle(original.title),
        content: original.content,
        pinned: original.pinned === 1,
        // A traditional version written by hand is copied as written; a made one is made again.
        ...(original.tw_by_hand === 1 && {
          traditional: { title: copyTitle(original.title_tw), content: original.content_tw },
        }),
        english: { title: original.title_en, content: original.content_en },
      };
      const id = await createWithRevision(db.kysely, { ...copy, state: 'draft' }, actorOf(request));
      const made = await findBulletin(db.kysely, id);
      const after = made === undefined ? undefined : toAdminBulletin(made, config.timeZone);
      await audit(db, request, { action: 'bulletin.duplicate', target: id, before: { from: original.id }, after });
      return reply.status(201).send({ id, version: after?.version ?? 1 });
    },
  );
};
