/** Feeds, share pages, the sitemap and robots.txt: the addresses the world outside the site's
 * hash routes can read. Answered with an ETag (a matching If-None-Match gets a 304), and HEAD. */
import { readAppConfig } from '@chat-site/contract';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { RouteDeps } from '../lib/deps.js';
import { publicOrigin } from '../lib/origin.js';
import { getAppConfig } from '../settings/repository.js';
import { announcementsPath, reachPaths, sharePath } from './addresses.js';
import { publishBulletin, type PublishContext } from './content.js';
import { buildAtomFeed, buildRssFeed, type FeedData } from './feeds.js';
import { bulletinStamps, lastBulletinChange, latestBulletins } from './repository.js';
import { findBulletin } from '../bulletins/repository.js';
import { continueScript, renderShareNotFound, renderSharePage, sharePageCsp } from './share-page.js';
import { buildRobotsTxt, buildSitemap, sitemapMaxUrls } from './sitemap.js';
import { reachText } from './text.js';
import { rfc3339 } from './times.js';

const feedSize = 50;
const maxId = 2_147_483_647;

/** An id as the site writes it, or undefined: anything else is simply a page that is not there. */
function parseId(text: string): number | undefined {
  if (!/^[1-9]\d{0,9}$/.test(text)) return undefined;
  const id = Number(text);
  return id <= maxId ? id : undefined;
}

export const reachRoutes: FastifyPluginAsync<RouteDeps> = async (app, { db, config, cache }) => {
  const product = config.site.productName;
  const contextOf = async (request: FastifyRequest): Promise<PublishContext> => ({
    origin: publicOrigin(request, config.publicUrl),
    cdn: readAppConfig(await getAppConfig(db.kysely)),
  });
  const send = (reply: FastifyReply, type: string, body: string) =>
    reply.type(type).header('cache-control', 'no-cache').send(body);

  async function feedData(request: FastifyRequest, selfPath: string): Promise<FeedData> {
    const context = await contextOf(request);
    const [rows, updatedAt] = await Promise.all([latestBulletins(db.kysely, feedSize), lastBulletinChange(db.kysely)]);
    return {
      title: reachText.feedTitle(product),
      description: reachText.feedDescription(product),
      language: reachText.language,
      siteUrl: `${context.origin}${announcementsPath}`,
      selfUrl: `${context.origin}${selfPath}`,
      author: product,
      updatedAt,
      timeZone: config.timeZone,
      entries: rows.map((row) => publishBulletin(row, context)),
    };
  }

  // Feeds and the sitemap are built from many rows (feeds clean 50 bodies again): they come from
  // memory until content changes, like the API's reads. Their addresses depend on the origin.
  const cached = (
    request: FastifyRequest,
    reply: FastifyReply,
    name: string,
    type: string,
    build: () => Promise<string>,
  ) =>
    cache.send(
      request,
      reply.header('cache-control', 'no-cache'),
      `${name} ${publicOrigin(request, config.publicUrl)}`,
      build,
      type,
    );

  app.get(reachPaths.atom, async (request, reply) =>
    cached(request, reply, 'atom', 'application/atom+xml; charset=utf-8', async () =>
      buildAtomFeed(await feedData(request, reachPaths.atom)),
    ),
  );
  app.get(reachPaths.rss, async (request, reply) =>
    cached(request, reply, 'rss', 'application/rss+xml; charset=utf-8', async () =>
      buildRssFeed(await feedData(request, reachPaths.rss)),
    ),
  );

  app.get(reachPaths.continueScript, async (_request, reply) =>
    reply.type('text/javascript; charset=utf-8').header('cache-control', 'public, max-age=86400').send(continueScript),
  );

  app.get<{ Params: { id: string } }>(reachPaths.share, async (request, reply) => {
    const id = parseId(request.params.id);
    const row = id === undefined ? undefined : await findBulletin(db.kysely, id);
    reply.header('content-security-policy', sharePageCsp);
    if (row === undefined) return send(reply.status(404), 'text/html; charset=utf-8', renderShareNotFound(product));
    const context = await contextOf(request);
    const entry = publishBulletin(row, context);
    const page = renderSharePage({ entry, product, origin: context.origin, timeZone: config.timeZone });
    return send(reply, 'text/html; charset=utf-8', page);
  });

  app.get(reachPaths.sitemap, async (request, reply) =>
    cached(request, reply, 'sitemap', 'application/xml; charset=utf-8', () => sitemap(request)),
  );

  async function sitemap(request: FastifyRequest): Promise<string> {
    const origin = publicOrigin(request, config.publicUrl);
    const [stamps, latest] = await Promise.all([
      bulletinStamps(db.kysely, sitemapMaxUrls - 1),
      lastBulletinChange(db.kysely),
    ]);
    const urls = [
      { loc: `${origin}/`, lastmod: latest === undefined ? undefined : rfc3339(latest, config.timeZone) },
      ...stamps.map((stamp) => ({
        loc: `${origin}${sharePath(stamp.id)}`,
        lastmod: rfc3339(stamp.updated_at, config.timeZone),
      })),
    ];
    return buildSitemap(urls);
  }

  app.get(reachPaths.robots, async (request, reply) =>
    send(
      reply,
      'text/plain; charset=utf-8',
      buildRobotsTxt(`${publicOrigin(request, config.publicUrl)}${reachPaths.sitemap}`),
    ),
  );
};
