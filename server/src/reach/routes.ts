/** Feeds, share pages, the sitemap and robots.txt: the addresses the world outside the site's
 * hash routes can read. Answered with an ETag (a matching If-None-Match gets a 304), and HEAD. */
import { readAppConfig } from '@chat-site/contract';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { RouteDeps } from '../pipeline/deps.js';
import { originMark, publicOrigin, withOrigin } from '../lib/origin.js';
import { getAppConfig } from '../settings/repository.js';
import { changelogReleases } from '../updates/changelog.js';
import { announcementsPath, changelogPath, reachPaths, sharePath } from './addresses.js';
import { buildChangelogAtom } from './changelog-feed.js';
import { textResponse } from '../lib/schemas.js';
import { publishBulletin, type PublishContext } from './content.js';
import { buildAtomFeed, buildRssFeed, type FeedData } from './feeds.js';
import { bulletinStamps, lastBulletinChange, latestBulletins } from './repository.js';
import { findPublishedBulletin } from '../bulletins/repository.js';
import { continueScript, renderShareNotFound, renderSharePage, sharePageCsp } from './share-page.js';
import { buildRobotsTxt, buildSitemap, sitemapMaxUrls } from './sitemap.js';
import { bulletinPicture } from './picture/pictures.js';
import { reachText } from './text.js';
import { rfc3339 } from './times.js';

const feedSize = 50;

/** A share page asked for an announcement that does not exist: answered, never kept. */
class NoSuchBulletin extends Error {}
const maxId = 2_147_483_647;

/** An id as the site writes it, or undefined: anything else is simply a page that is not there. */
function parseId(text: string): number | undefined {
  if (!/^[1-9]\d{0,9}$/.test(text)) return undefined;
  const id = Number(text);
  return id <= maxId ? id : undefined;
}

export const reachRoutes: FastifyPluginAsync<RouteDeps> = async (app, { db, config, cache }) => {
  const product = config.site.productName;
  // Feeds, share pages and the sitemap are built once per state of the content with originMark
  // for the origin, and every origin they are asked at fills in its own: a new Host header costs
  // a string replacement and a compression, never a rebuild (feeds clean 50 bodies again).
  const context = async (): Promise<PublishContext> => ({
    origin: originMark,
    cdn: readAppConfig(await getAppConfig(db.kysely)),
  });
  const send = (reply: FastifyReply, type: string, body: string) =>
    reply.type(type).header('cache-control', 'no-cache').send(body);

  async function feedData(selfPath: string): Promise<FeedData> {
    const publish = await context();
    const [rows, updatedAt] = await Promise.all([latestBulletins(db.kysely, feedSize), lastBulletinChange(db.kysely)]);
    return {
      title: reachText.feedTitle(product),
      description: reachText.feedDescription(product),
      language: reachText.language,
      siteUrl: `${originMark}${announcementsPath}`,
      selfUrl: `${originMark}${selfPath}`,
      author: product,
      updatedAt,
      timeZone: config.timeZone,
      entries: rows.map((row) => publishBulletin(row, publish)),
    };
  }

  /** The answer named `name` at the request's origin, from memory until content changes. */
  const cached = (
    request: FastifyRequest,
    reply: FastifyReply,
    name: string,
    type: string,
    build: () => Promise<string>,
  ) => {
    const origin = publicOrigin(request, config.publicUrl);
    return cache.send(
      request,
      reply.header('cache-control', 'no-cache'),
      `${name} ${origin}`,
      async () => withOrigin(await cache.text(`${name} template`, build), origin),
      type,
      // Without PUBLIC_URL every Host header is an answer of its own: compressed quickly.
      config.publicUrl === undefined ? 'quick' : 'best',
    );
  };

  app.get(reachPaths.atom, { schema: schemas.atom }, async (request, reply) =>
    cached(request, reply, 'atom', 'application/atom+xml; charset=utf-8', async () =>
      buildAtomFeed(await feedData(reachPaths.atom)),
    ),
  );
  app.get(reachPaths.rss, { schema: schemas.rss }, async (request, reply) =>
    cached(request, reply, 'rss', 'application/rss+xml; charset=utf-8', async () =>
      buildRssFeed(await feedData(reachPaths.rss)),
    ),
  );

  app.get(reachPaths.changelogAtom, { schema: schemas.changelogAtom }, async (request, reply) =>
    cached(request, reply, 'changelog atom', 'application/atom+xml; charset=utf-8', async () =>
      buildChangelogAtom({
        title: reachText.changelogTitle(product),
        language: reachText.language,
        siteUrl: `${originMark}${changelogPath}`,
        selfUrl: `${originMark}${reachPaths.changelogAtom}`,
        author: product,
        timeZone: config.timeZone,
        entryTitle: reachText.releaseTitle,
        releases: await changelogReleases({
          db: db.kysely,
          timeZone: config.timeZone,
          apiBase: `${originMark}/v1/`,
          appUrl: config.site.appUrl,
        }),
      }),
    ),
  );

  app.get(reachPaths.continueScript, { schema: schemas.continueScript }, async (_request, reply) =>
    reply.type('text/javascript; charset=utf-8').header('cache-control', 'public, max-age=86400').send(continueScript),
  );

  app.get<{ Params: { id: string } }>(reachPaths.share, { schema: schemas.share }, async (request, reply) => {
    const id = parseId(request.params.id);
    reply.header('content-security-policy', sharePageCsp);
    const notFound = () => send(reply.status(404), 'text/html; charset=utf-8', renderShareNotFound(product));
    if (id === undefined) return notFound();
    try {
      return await cached(request, reply, `share ${id}`, 'text/html; charset=utf-8', async () => {
        const row = await findPublishedBulletin(db.kysely, id);
        if (row === undefined) throw new NoSuchBulletin();
        const entry = publishBulletin(row, await context());
        const picture = bulletinPicture(entry, product, originMark, config.timeZone);
        return renderSharePage({ entry, product, origin: originMark, timeZone: config.timeZone, picture });
      });
    } catch (error) {
      if (error instanceof NoSuchBulletin) return notFound();
      throw error;
    }
  });

  app.get(reachPaths.sitemap, { schema: schemas.sitemap }, async (request, reply) =>
    cached(request, reply, 'sitemap', 'application/xml; charset=utf-8', sitemap),
  );

  async function sitemap(): Promise<string> {
    const origin = originMark;
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

  app.get(reachPaths.robots, { schema: schemas.robots }, async (request, reply) =>
    send(
      reply,
      'text/plain; charset=utf-8',
      buildRobotsTxt(`${publicOrigin(request, config.publicUrl)}${reachPaths.sitemap}`),
    ),
  );
};

/** What the OpenAPI document says of these routes. */
const schemas = {
  atom: {
    operationId: 'getAtomFeed',
    summary: 'The published announcements as an Atom feed',
    response: { 200: textResponse('application/atom+xml', 'The feed') },
  },
  changelogAtom: {
    operationId: 'getChangelogFeed',
    summary: 'Every published release, newest first, as an Atom feed',
    response: { 200: textResponse('application/atom+xml', 'The feed') },
  },
  rss: {
    operationId: 'getRssFeed',
    summary: 'The published announcements as an RSS 2.0 feed',
    response: { 200: textResponse('application/rss+xml', 'The feed') },
  },
  continueScript: {
    operationId: 'getShareScript',
    summary: "The share pages' one script: on to the announcement in the site",
    response: { 200: textResponse('text/javascript', 'The script') },
  },
  share: {
    operationId: 'getSharePage',
    summary: 'An announcement as a page of its own, for search engines and link previews',
    response: {
      200: textResponse('text/html', 'The page'),
      404: textResponse('text/html', 'No published announcement has this id: a page that says so'),
    },
  },
  sitemap: {
    operationId: 'getSitemap',
    summary: 'The sitemap: the site and every published announcement',
    response: { 200: textResponse('application/xml', 'The sitemap') },
  },
  robots: {
    operationId: 'getRobotsTxt',
    summary: 'robots.txt, naming the sitemap',
    response: { 200: textResponse('text/plain', 'The file') },
  },
};
