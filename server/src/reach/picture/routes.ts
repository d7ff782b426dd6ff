/**
 * The share pictures: `/a/{id}/picture.png` for a published announcement and
 * `/site-picture.png` for the site, 1200x630 PNGs drawn on first demand and kept in memory
 * (docs/reach.md#share-pictures). Asked for at the version the pages name (`?v=`), a
 * picture never changes, so it is cached for a year; at any other it is revalidated each time.
 */
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { languageOf } from '@chat-site/contract';
import { languageVersion } from '../../bulletins/repository.js';
import { findPublishedBulletin } from '../../bulletins/repository.js';
import { clientKey } from '../../pipeline/admin-guard.js';
import type { RouteDeps } from '../../pipeline/deps.js';
import { HttpError, notFound } from '../../lib/errors.js';
import { pictureRefusals } from '../../lib/metrics.js';
import { errorResponse } from '../../lib/schemas.js';
import { reachPaths } from '../addresses.js';
import type { Node } from './card.js';
import { bulletinCard, siteCardOf } from './pictures.js';
import { DrawBudget } from './budget.js';
import { pictureThread } from './drawer.js';
import { cardVersion, PicturesBusy, PictureStore } from './store.js';

/** About 60 to 120 KB a picture: a few hundred announcements' pictures (docs/scaling.md#share-pictures). */
export const pictureCacheBytes = 16 * 1024 * 1024;
const maxWaiting = 8;
const maxId = 2_147_483_647;
/** Per client: a link previewer needs one picture a share; walking through them all runs out. */
export const drawBudget = { perWindow: 20, atOnce: 2, windowMs: 60_000, maxClients: 10_000 };

export const pictureRoutes: FastifyPluginAsync<RouteDeps> = async (app, { db, config }) => {
  const store = new PictureStore({ draw: (card) => pictureThread.draw(card), maxBytes: pictureCacheBytes, maxWaiting });
  const budget = new DrawBudget(drawBudget);
  const product = config.site.productName;

  /** The picture from memory, or drawn within the client's budget and the store's queue. */
  async function picture(request: FastifyRequest, reply: FastifyReply, card: Node, version: string) {
    if (store.has(version)) return store.picture(card, version);
    const grant = budget.take(clientKey(request.ip));
    if (!grant.granted) {
      pictureRefusals.clientBudget++;
      refuseWith(reply, Math.ceil(grant.retryAfterMs / 1000));
      throw new HttpError(429, 'Too many new pictures asked for by this client; try again later');
    }
    try {
      return await store.picture(card, version);
    } catch (error) {
      if (!(error instanceof PicturesBusy)) throw error;
      pictureRefusals.queueFull++;
      refuseWith(reply, 5);
      throw new HttpError(503, 'Too many pictures are being drawn; try again shortly');
    } finally {
      grant.release();
    }
  }

  async function send(request: FastifyRequest<{ Querystring: { v?: string } }>, reply: FastifyReply, card: Node) {
    const version = cardVersion(card);
    const etag = `"${version}"`;
    reply
      .header('etag', etag)
      .header(
        'cache-control',
        request.query.v === version ? 'public, max-age=31536000, immutable' : 'public, max-age=0, must-revalidate',
      );
    if (request.headers['if-none-match']?.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag)) {
      return reply.code(304).send();
    }
    return reply.type('image/png').send(await picture(request, reply, card, version));
  }

  app.get<{ Params: { id: string }; Querystring: { v?: string; lang?: string } }>(
    reachPaths.sharePicture,
    { schema: schemas.share },
    async (request, reply) => {
      const id = /^[1-9]\d{0,9}$/.test(request.params.id) ? Number(request.params.id) : maxId + 1;
      const row = id <= maxId ? await findPublishedBulletin(db.kysely, id) : undefined;
      if (row === undefined) throw notFound('Announcement');
      return send(
        request,
        reply,
        // In the language of the share page that names it (docs/reach.md#languages-of-share-pages-and-feeds).
        bulletinCard(
          { title: languageVersion(row, languageOf(request.query.lang) ?? undefined).title, createdAt: row.created_at },
          product,
          config.timeZone,
        ),
      );
    },
  );

  app.get<{ Querystring: { v?: string } }>(reachPaths.sitePicture, { schema: schemas.site }, (request, reply) =>
    send(request, reply, siteCardOf(product)),
  );
};

function refuseWith(reply: FastifyReply, retryAfterSeconds: number): void {
  reply.removeHeader('etag');
  reply.header('retry-after', String(retryAfterSeconds)).header('cache-control', 'no-store');
}

const png = { content: { 'image/png': { schema: { type: 'string', format: 'binary' } } } };
const version = {
  type: 'object',
  properties: {
    v: { type: 'string', maxLength: 64, description: 'The version the pages name; any other is answered too' },
  },
} as const;
const common = {
  querystring: version,
  304: { type: 'null', description: 'Not modified: If-None-Match matched' },
  429: errorResponse('This client asked for too many pictures not drawn yet: try again after Retry-After seconds'),
  503: errorResponse('Too many pictures are waiting to be drawn: try again after Retry-After seconds'),
};

/** What the OpenAPI document says of these routes. */
const schemas = {
  share: {
    operationId: 'getSharePicture',
    summary: "An announcement's share picture (og:image): 1200x630 PNG of its title, date and the product",
    querystring: common.querystring,
    response: {
      200: { description: 'The picture', ...png },
      304: common[304],
      404: errorResponse('No published announcement has this id'),
      429: common[429],
      503: common[503],
    },
  },
  site: {
    operationId: 'getSitePicture',
    summary: "The site's share picture (og:image): 1200x630 PNG of the logo, the product and its line",
    querystring: common.querystring,
    response: { 200: { description: 'The picture', ...png }, 304: common[304], 429: common[429], 503: common[503] },
  },
};
