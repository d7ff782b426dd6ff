/** Feeds, share pages, the sitemap and robots.txt: the addresses the world outside the site's
 * hash routes can read. Answered with an ETag (a matching If-None-Match gets a 304), and HEAD. */
import { defaultLanguage, languageOf, languages, readAppConfig, type Language } from '@chat-site/contract';
import { languageVersion } from '../bulletins/repository.js';
import { addVary } from '../pipeline/read-cache.js';
import { pageLanguage } from '../lib/page-language.js';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { RouteDeps } from '../pipeline/deps.js';
import { originMark, publicOrigin, withOrigin } from '../lib/origin.js';
import { getAppConfig } from '../settings/repository.js';
import { changelogReleases } from '../updates/changelog.js';
import { announcementsPath, changelogPath, inLanguage, reachPaths, sharePath } from './addresses.js';
import { buildChangelogAtom } from './changelog-feed.js';
import { textResponse } from '../lib/schemas.js';
import { publishBulletin, type PublishContext } from './content.js';
import { buildAtomFeed, buildRssFeed, type FeedData } from './feeds.js';
import { bulletinStamps, lastBulletinChange, latestBulletins } from './repository.js';
import { findPublishedBulletin } from '../bulletins/repository.js';
import { continueScript, renderShareNotFound, renderSharePage, sharePageCsp } from './share-page.js';
import { buildRobotsTxt, buildSitemap, sitemapMaxUrls } from './sitemap.js';
import { bulletinPicture } from './picture/pictures.js';
import { reachTexts } from './text.js';
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

  /** A feed in `language`: `?lang=` on its address (docs/reach.md#languages-of-share-pages-and-feeds). */
  async function feedData(selfPath: string, language: Language): Promise<FeedData> {
    const publish = await context();
    const [rows, updatedAt] = await Promise.all([latestBulletins(db.kysely, feedSize), lastBulletinChange(db.kysely)]);
    const text = reachTexts[language];
    return {
      title: text.feedTitle(product),
      description: text.feedDescription(product),
      language: text.language,
      siteUrl: `${originMark}${inLanguage(announcementsPath, language)}`,
      selfUrl: `${originMark}${inLanguage(selfPath, language)}`,
      author: product,
      updatedAt,
      timeZone: config.timeZone,
      entries: rows.map((row) => {
        const entry = publishBulletin({ ...row, ...languageVersion(row, language) }, publish);
        return { ...entry, url: inLanguage(entry.url, language), siteUrl: inLanguage(entry.siteUrl, language) };
      }),
    };
  }
  const feedLanguage = (request: FastifyRequest): Language => {
    const lang = (request.query as Record<string, unknown> | undefined)?.lang;
    return languageOf(typeof lang === 'string' ? lang : null) ?? defaultLanguage;
  };

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

  app.get(reachPaths.atom, { schema: schemas.atom }, async (request, reply) => {
    const language = feedLanguage(request);
    return cached(request, reply, `atom ${language}`, 'application/atom+xml; charset=utf-8', async () =>
      buildAtomFeed(await feedData(reachPaths.atom, language)),
    );
  });
  app.get(reachPaths.rss, { schema: schemas.rss }, async (request, reply) => {
    const language = feedLanguage(request);
    return cached(request, reply, `rss ${language}`, 'application/rss+xml; charset=utf-8', async () =>
      buildRssFeed(await feedData(reachPaths.rss, language)),
    );
  });

  // Per language like the announcements' feeds: `?lang=`, the notes in it where they are.
  app.get(reachPaths.changelogAtom, { schema: schemas.changelogAtom }, async (request, reply) => {
    const language = feedLanguage(request);
    const text = reachTexts[language];
    return cached(request, reply, `changelog atom ${language}`, 'application/atom+xml; charset=utf-8', async () =>
      buildChangelogAtom({
        title: text.changelogTitle(product),
        language: text.language,
        siteUrl: `${originMark}${inLanguage(changelogPath, language)}`,
        selfUrl: `${originMark}${inLanguage(reachPaths.changelogAtom, language)}`,
        author: product,
        timeZone: config.timeZone,
        entryTitle: text.releaseTitle,
        releases: await changelogReleases({
          db: db.kysely,
          timeZone: config.timeZone,
          apiBase: `${originMark}/v1/`,
          appUrl: config.site.appUrl,
          language,
        }),
      }),
    );
  });

  app.get(reachPaths.continueScript, { schema: schemas.continueScript }, async (_request, reply) =>
    reply.type('text/javascript; charset=utf-8').header('cache-control', 'public, max-age=86400').send(continueScript),
  );

  app.get<{ Params: { id: string } }>(reachPaths.share, { schema: schemas.share }, async (request, reply) => {
    const id = parseId(request.params.id);
    reply.header('content-security-policy', sharePageCsp);
    const notFound = () => send(reply.status(404), 'text/html; charset=utf-8', renderShareNotFound(product));
    if (id === undefined) return notFound();
    try {
      // In the visitor's language, picked as for the site's page (docs/reach.md#languages-of-share-pages-and-feeds).
      const language = pageLanguage(request);
      addVary(reply, 'accept-language');
      addVary(reply, 'cookie');
      return await cached(request, reply, `share ${id} ${language}`, 'text/html; charset=utf-8', async () => {
        const row = await findPublishedBulletin(db.kysely, id);
        if (row === undefined) throw new NoSuchBulletin();
        const published = publishBulletin({ ...row, ...languageVersion(row, language) }, await context());
        const entry = {
          ...published,
          url: inLanguage(published.url, language),
          siteUrl: inLanguage(published.siteUrl, language),
        };
        const picture = bulletinPicture(entry, product, originMark, config.timeZone, language);
        const alternates = [
          ...languages.map((other) => ({ language: other, url: inLanguage(published.url, other) })),
          { language: 'x-default', url: published.url },
        ];
        const text = reachTexts[language];
        return renderSharePage({
          entry,
          product,
          origin: originMark,
          timeZone: config.timeZone,
          picture,
          text,
          alternates,
        });
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
    // Every address in every language the site speaks (docs/reach.md#languages-of-share-pages-and-feeds).
    const [stamps, latest] = await Promise.all([
      bulletinStamps(db.kysely, Math.floor(sitemapMaxUrls / languages.length) - 1),
      lastBulletinChange(db.kysely),
    ]);
    const urls = [
      ...languages.map((language) => ({
        loc: `${origin}${inLanguage('/', language)}`,
        lastmod: latest === undefined ? undefined : rfc3339(latest, config.timeZone),
      })),
      ...stamps.flatMap((stamp) =>
        languages.map((language) => ({
          loc: `${origin}${inLanguage(sharePath(stamp.id), language)}`,
          lastmod: rfc3339(stamp.updated_at, config.timeZone),
        })),
      ),
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
