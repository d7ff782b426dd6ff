import { BulletinDetail, BulletinPage, paging } from '@chat-site/contract';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { audit } from '../accounts/door.js';
import { badRequest, notFound } from '../lib/errors.js';
import type { RouteDeps } from '../lib/deps.js';
import { errorResponses, Id } from '../lib/schemas.js';
import {
  countBulletins,
  createBulletin,
  findBulletin,
  listBulletinPage,
  removeBulletin,
  toDetail,
  toListItem,
  updateBulletin,
} from './repository.js';
import { sanitizeBulletinHtml, tooDeeplyNested } from './sanitize.js';

export const bulletinRoutes: FastifyPluginAsyncTypebox<RouteDeps> = async (app, { db, config, cache }) => {
  app.get(
    '/bulletin/page',
    {
      schema: {
        querystring: Type.Object({
          page_index: Type.Integer({ minimum: 1, maximum: 1_000_000, default: paging.defaultPageIndex }),
          page_size: Type.Integer({ minimum: 1, maximum: paging.maxPageSize, default: paging.defaultPageSize }),
        }),
        response: { 200: BulletinPage, ...errorResponses },
      },
    },
    async (request, reply) => {
      const { page_index, page_size } = request.query;
      // Every page past the last one is the same empty page: one key for them all, so asking for
      // page after page of nothing cannot fill the cache.
      const count = Number(await cache.text('bulletin/count', async () => String(await countBulletins(db.kysely))));
      const index = page_index > Math.max(1, Math.ceil(count / page_size)) ? 'past-end' : page_index;
      return cache.send(request, reply, `bulletin/page ${index} ${page_size}`, async () => {
        const { count, rows } = await listBulletinPage(db.kysely, { index: page_index, size: page_size });
        return { count, list: rows.map((row) => toListItem(row, config.timeZone)) };
      });
    },
  );

  app.get(
    '/bulletin/detail',
    {
      schema: {
        querystring: Type.Object({ id: Id }),
        response: { 200: BulletinDetail, ...errorResponses },
      },
    },
    async (request, reply) => {
      const { id } = request.query;
      return cache.send(request, reply, `bulletin/detail ${id}`, async () => {
        const row = await findBulletin(db.kysely, id);
        if (row === undefined) throw notFound('announcement');
        return toDetail(row, config.timeZone);
      });
    },
  );
};

const Title = Type.String({ minLength: 1, maxLength: 200, pattern: '\\S' });
const Content = Type.String({ maxLength: 1_000_000 });
const Topup = Type.Union([Type.Literal(0), Type.Literal(1)]);

export const bulletinAdminRoutes: FastifyPluginAsyncTypebox<RouteDeps> = async (app, { db }) => {
  app.post(
    '/bulletins',
    {
      config: { access: 'editor' },
      schema: {
        body: Type.Object(
          { title: Title, content: Content, topup: Type.Optional(Topup) },
          { additionalProperties: false },
        ),
        response: { 201: Type.Object({ id: Type.Integer() }), ...errorResponses },
      },
    },
    async (request, reply) => {
      const { title, content, topup } = request.body;
      const id = await createBulletin(db.kysely, {
        title: title.trim(),
        content: publishable(content),
        pinned: topup === 1,
      });
      await audit(db, request, { action: 'bulletin.create', target: id, after: await findBulletin(db.kysely, id) });
      return reply.status(201).send({ id });
    },
  );

  app.put(
    '/bulletins/:id',
    {
      config: { access: 'editor' },
      schema: {
        params: Type.Object({ id: Id }),
        body: Type.Object(
          { title: Type.Optional(Title), content: Type.Optional(Content), topup: Type.Optional(Topup) },
          { additionalProperties: false, minProperties: 1 },
        ),
        response: { 200: Type.Object({ id: Type.Integer() }), ...errorResponses },
      },
    },
    async (request) => {
      const { id } = request.params;
      const { title, content, topup } = request.body;
      const before = await findBulletin(db.kysely, id);
      const found = await updateBulletin(db.kysely, id, {
        ...(title !== undefined && { title: title.trim() }),
        ...(content !== undefined && { content: publishable(content) }),
        ...(topup !== undefined && { pinned: topup === 1 }),
      });
      if (!found) throw notFound('announcement');
      await audit(db, request, {
        action: 'bulletin.update',
        target: id,
        before,
        after: await findBulletin(db.kysely, id),
      });
      return { id };
    },
  );

  app.delete(
    '/bulletins/:id',
    {
      config: { access: 'editor' },
      schema: { params: Type.Object({ id: Id }), response: { 204: Type.Null(), ...errorResponses } },
    },
    async (request, reply) => {
      const before = await findBulletin(db.kysely, request.params.id);
      if (!(await removeBulletin(db.kysely, request.params.id))) throw notFound('announcement');
      await audit(db, request, { action: 'bulletin.remove', target: request.params.id, before });
      return reply.status(204).send(null);
    },
  );
};

/** The content as it will be stored: cleaned, or refused when it nests too deep to clean. */
function publishable(html: string): string {
  const problem = tooDeeplyNested(html);
  if (problem !== undefined) throw badRequest(problem);
  return sanitizeBulletinHtml(html);
}
