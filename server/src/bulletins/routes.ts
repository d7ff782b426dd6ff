import { BulletinDetail, BulletinPage, defaultLanguage, languageOf, LanguageQuery, paging } from '@chat-site/contract';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { notFound } from '../lib/errors.js';
import type { RouteDeps } from '../pipeline/deps.js';
import { errorResponse, Id } from '../lib/schemas.js';
import { countBulletins, findPublishedBulletin, listBulletinPage, toDetail, toListItem } from './repository.js';

export const bulletinRoutes: FastifyPluginAsyncTypebox<RouteDeps> = async (app, { db, config, cache }) => {
  app.get(
    '/bulletin/page',
    {
      schema: {
        operationId: 'listBulletins',
        summary: 'One page of the published announcements, pinned ones first',
        querystring: Type.Object({
          page_index: Type.Integer({ minimum: 1, maximum: 1_000_000, default: paging.defaultPageIndex }),
          page_size: Type.Integer({ minimum: 1, maximum: paging.maxPageSize, default: paging.defaultPageSize }),
          lang: LanguageQuery,
        }),
        response: { 200: BulletinPage },
      },
    },
    async (request, reply) => {
      const { page_index, page_size } = request.query;
      const language = languageOf(request.query.lang) ?? defaultLanguage;
      // Every page past the last one is the same empty page: one key for them all, so asking for
      // page after page of nothing cannot fill the cache.
      const count = Number(await cache.text('bulletin/count', async () => String(await countBulletins(db.kysely))));
      const index = page_index > Math.max(1, Math.ceil(count / page_size)) ? 'past-end' : page_index;
      return cache.sendForUrl(request, reply, `bulletin/page ${index} ${page_size} ${language}`, async () => {
        const { count, rows } = await listBulletinPage(db.kysely, { index: page_index, size: page_size });
        return { count, list: rows.map((row) => toListItem(row, config.timeZone, language)) };
      });
    },
  );

  app.get(
    '/bulletin/detail',
    {
      schema: {
        operationId: 'getBulletin',
        summary: 'One published announcement',
        querystring: Type.Object({ id: Id, lang: LanguageQuery }),
        response: { 200: BulletinDetail, 404: errorResponse('No published announcement has this id') },
      },
    },
    async (request, reply) => {
      const { id } = request.query;
      const language = languageOf(request.query.lang) ?? defaultLanguage;
      return cache.sendForUrl(request, reply, `bulletin/detail ${id} ${language}`, async () => {
        const row = await findPublishedBulletin(db.kysely, id);
        if (row === undefined) throw notFound('announcement');
        return toDetail(row, config.timeZone, language);
      });
    },
  );
};
