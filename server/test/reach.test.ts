/**
 * Feeds, share pages, sitemap and robots.txt, in-process on a real database. The feeds are read
 * back with a real feed parser (feedsmith); the pure builders are also fed arbitrary text.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import { parseFeed } from 'feedsmith';
import { createBulletin } from '../src/bulletins/repository.js';
import { connect } from '../src/db/connect.js';
import type { PublishedBulletin } from '../src/reach/content.js';
import { buildAtomFeed, buildRssFeed, type FeedData } from '../src/reach/feeds.js';
import { stripForbiddenXmlChars } from '../src/reach/xml.js';
import { bearer, readUntil, startTestApp, type TestApp } from './helpers.js';

const site = 'https://chat.example.com';
const hostile = `<script>alert("x")</script> & 'q' 星聊 🚀 é\u0001`;
const hostileContent =
  '<p onclick="steal()">正文 <img src="file/preview/0123456789abcdef-a.png" onerror="steal()">' +
  ' <a href="#/download">下载</a> <a href="javascript:steal()">x</a></p><script>steal()</script>';

let pub: TestApp;
let local: TestApp;
before(async () => {
  [pub, local] = await Promise.all([
    startTestApp({ env: { PUBLIC_URL: site, TIME_ZONE: 'Asia/Shanghai' } }),
    startTestApp({ demo: true }),
  ]);
});
after(() => Promise.all([pub.close(), local.close()]));

async function addBulletin(t: TestApp, title: string, content: string): Promise<number> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/v1/admin/bulletins',
    headers: bearer,
    payload: { title, content },
  });
  assert.equal(res.statusCode, 201, res.body);
  return res.json<{ id: number }>().id;
}

function atomOf(xml: string) {
  const parsed = parseFeed(xml);
  assert.equal(parsed.format, 'atom');
  return parsed.feed as Extract<ReturnType<typeof parseFeed>, { format: 'atom' }>['feed'];
}
function rssOf(xml: string) {
  const parsed = parseFeed(xml);
  assert.equal(parsed.format, 'rss');
  return parsed.feed as Extract<ReturnType<typeof parseFeed>, { format: 'rss' }>['feed'];
}

describe('feeds', () => {
  let hostileId: number;
  before(async () => {
    // 55 older announcements, an hour apart, then one through the admin API (now, the newest).
    for (let i = 0; i < 55; i++) {
      const createdAt = new Date(Date.UTC(2024, 0, 1, i)).toISOString();
      await createBulletin(pub.db.kysely, {
        title: `公告 ${i}`,
        content: `<p>第 ${i} 条</p>`,
        pinned: i === 3,
        createdAt,
      });
    }
    hostileId = await addBulletin(pub, hostile, hostileContent);
  });

  test('Atom: the latest 50 in full, newest first, with every element RFC 4287 requires', async () => {
    const res = await pub.app.inject('/feed.atom');
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers['content-type'], 'application/atom+xml; charset=utf-8');
    const feed = atomOf(res.body);
    assert.equal(feed.id, `${site}/feed.atom`);
    assert.equal(feed.title?.value, '星聊 平台公告');
    assert.ok(!Number.isNaN(Date.parse(String(feed.updated))));
    assert.deepEqual(
      feed.links?.map((link) => [link.rel, link.href]),
      [
        ['self', `${site}/feed.atom`],
        ['alternate', `${site}/#/announcements`],
      ],
    );
    assert.equal(feed.authors?.[0]?.name, '星聊');
    const entries = feed.entries ?? [];
    assert.equal(entries.length, 50);
    assert.deepEqual(
      entries.slice(1, 3).map((entry) => entry.title?.value),
      ['公告 54', '公告 53'],
    );
    assert.equal(entries.at(-1)?.title?.value, '公告 6', 'the pinned one is not lifted out of time order');
    const older = entries[1];
    assert.equal(older?.id, `${site}/a/${hostileId - 1}`);
    assert.equal(older?.published, '2024-01-03T14:00:00+08:00');
    assert.equal(older?.updated !== undefined, true);
    assert.equal(older?.content?.value, '<p>第 54 条</p>');
    assert.equal(older?.links?.[0]?.href, `${site}/a/${hostileId - 1}`);
  });

  test('RSS 2.0: channel title, link and description; items with guid, link, date and the full body', async () => {
    const res = await pub.app.inject('/feed.rss');
    assert.equal(res.headers['content-type'], 'application/rss+xml; charset=utf-8');
    const feed = rssOf(res.body);
    assert.equal(feed.title, '星聊 平台公告');
    assert.equal(feed.link, `${site}/#/announcements`);
    assert.equal(feed.description, '星聊 官方发布的平台公告');
    assert.deepEqual(feed.atom?.links?.[0]?.href, `${site}/feed.rss`);
    const items = feed.items ?? [];
    assert.equal(items.length, 50);
    const older = items[1];
    assert.equal(older?.guid?.value, `${site}/a/${hostileId - 1}`);
    assert.equal(older?.guid?.isPermaLink, true);
    assert.equal(older?.pubDate, 'Wed, 03 Jan 2024 14:00:00 +0800');
    assert.equal(Date.parse(older?.pubDate ?? ''), Date.UTC(2024, 0, 3, 6));
    assert.equal(older?.description, '<p>第 54 条</p>');
  });

  test('hostile and unicode titles round-trip; bodies are cleaned, with absolute links and images', async () => {
    const atom = atomOf((await pub.app.inject('/feed.atom')).body).entries?.[0];
    const rss = rssOf((await pub.app.inject('/feed.rss')).body).items?.[0];
    const title = hostile.replace('\u0001', '').trim();
    assert.equal(atom?.title?.value, title);
    assert.equal(rss?.title, title);
    for (const html of [atom?.content?.value, rss?.description]) {
      assert.equal(
        html,
        `<p>正文 <img src="${site}/v1/file/preview/0123456789abcdef-a.png" />` +
          ` <a href="${site}/#/download" rel="noopener noreferrer" target="_blank">下载</a>` +
          ' <a rel="noopener noreferrer" target="_blank">x</a></p>',
      );
    }
  });

  test('text stored before cleaning on write, or holding characters XML forbids, still makes a valid feed', async () => {
    // Written like another program would, on a connection of its own: the server notices the
    // change (SQLite's data_version, PostgreSQL's NOTIFY) and builds the feed again.
    const other = connect(pub.config.database);
    await createBulletin(other.kysely, {
      title: 'raw\u0008\uFFFE',
      content: '<p>ok<img src=x onerror=alert(1)></p><iframe src="https://evil.example"></iframe>\u000B',
      pinned: false,
      createdAt: new Date().toISOString(),
    });
    await other.close();
    const body = await readUntil(
      pub.app,
      async () => (await pub.app.inject('/feed.atom')).body,
      (answer) => answer.includes('raw'),
    );
    for (const char of ['\u0008', '\u000B', '\uFFFE']) assert.ok(!body.includes(char));
    const entry = atomOf(body).entries?.[0];
    assert.equal(entry?.title?.value, 'raw');
    assert.equal(entry?.content?.value, `<p>ok<img src="${site}/v1/x" /></p>`);
  });

  test('with the CDN on, hosted images come from the CDN, as the site loads them', async () => {
    const put = (body: object) =>
      pub.app.inject({ method: 'PUT', url: '/v1/admin/appconfig', headers: bearer, payload: body });
    await put({ use_cdn: 1, common_cdn_bucket_url: 'https://cdn.example.com/bucket' });
    try {
      const entry = atomOf((await pub.app.inject('/feed.atom')).body).entries?.find((e) =>
        e.id?.endsWith(`/a/${hostileId}`),
      );
      assert.match(
        entry?.content?.value ?? '',
        /<img src="https:\/\/cdn\.example\.com\/bucket\/0123456789abcdef-a\.png" \/>/,
      );
    } finally {
      await put({ use_cdn: 0, common_cdn_bucket_url: '' });
    }
  });

  test('without PUBLIC_URL, addresses are built from the request', async () => {
    const res = await local.app.inject({ url: '/feed.atom', headers: { host: 'site.test:8080' } });
    const feed = atomOf(res.body);
    assert.equal(feed.id, 'http://site.test:8080/feed.atom');
    assert.equal(feed.entries?.length, 12);
    const withImage = feed.entries?.find((entry) => entry.content?.value?.includes('<img'));
    assert.match(withImage?.content?.value ?? '', /<img src="http:\/\/site\.test:8080\/v1\/file\/preview\/[^"]+"/);
  });

  test('feeds and share pages are built once for every Host; each Host only fills in its origin', async () => {
    const held = () => local.app.readCache.entries;
    for (const url of ['/feed.atom', '/feed.rss', '/sitemap.xml', '/a/1']) {
      await local.app.inject({ url, headers: { host: 'first.test' } });
      const before = held();
      for (let n = 0; n < 20; n++) {
        const res = await local.app.inject({ url, headers: { host: `host-${n}.test` } });
        assert.equal(res.statusCode, 200, url);
        assert.ok(res.body.includes(`http://host-${n}.test/`), url);
        assert.ok(!res.body.includes('\uE000'), 'no placeholder is left');
      }
      assert.equal(held(), before + 20, `${url}: one answer per Host, and no rebuild`);
    }
    const odd = await local.app.inject({ url: '/feed.atom', headers: { host: 'a"b<c' } });
    assert.ok(!odd.body.includes('a"b<c'), 'a Host that is no host name is never written out');
  });

  test('an ETag, revalidation to 304, no-cache, and HEAD', async () => {
    for (const url of ['/feed.atom', '/feed.rss', '/sitemap.xml', '/robots.txt', `/a/${hostileId}`]) {
      const first = await pub.app.inject(url);
      assert.equal(first.statusCode, 200, url);
      assert.equal(first.headers['cache-control'], 'no-cache', url);
      const etag = String(first.headers.etag);
      assert.match(etag, /^W\/"/, url);
      const again = await pub.app.inject({ url, headers: { 'if-none-match': etag } });
      assert.equal(again.statusCode, 304, url);
      assert.equal(again.body, '');
      const head = await pub.app.inject({ method: 'HEAD', url });
      assert.equal(head.statusCode, 200, url);
      assert.equal(head.body, '');
      assert.equal(head.headers['content-type'], first.headers['content-type']);
    }
    const before = (await pub.app.inject('/feed.atom')).headers.etag;
    await addBulletin(pub, '又一条', '<p>新</p>');
    assert.notEqual((await pub.app.inject('/feed.atom')).headers.etag, before, 'a new announcement changes the ETag');
  });

  test('an empty site still has valid feeds', async () => {
    const empty = await startTestApp();
    try {
      const atom = atomOf((await empty.app.inject('/feed.atom')).body);
      assert.equal(atom.updated, '1970-01-01T08:00:00+08:00');
      assert.deepEqual(atom.entries ?? [], []);
      assert.equal(rssOf((await empty.app.inject('/feed.rss')).body).title, '星聊 平台公告');
    } finally {
      await empty.close();
    }
  });
});

describe('the feed builders, given any text', () => {
  const entry = (title: string, html: string): PublishedBulletin => ({
    id: 1,
    title,
    url: `${site}/a/1`,
    siteUrl: `${site}/#/announcement/1`,
    html,
    summary: title,
    image: undefined,
    createdAt: '2024-05-01T12:00:00.000Z',
    updatedAt: '2024-05-01T12:00:00.000Z',
  });
  const feed = (title: string, html: string): FeedData => ({
    title,
    description: title,
    language: 'zh-CN',
    siteUrl: `${site}/#/announcements`,
    selfUrl: `${site}/feed.atom`,
    author: title,
    updatedAt: undefined,
    timeZone: 'UTC',
    entries: [entry(title, html)],
  });

  test('every title and body comes back as written, less the characters XML 1.0 forbids', () => {
    const text = fc.string({ unit: 'binary', maxLength: 40 });
    fc.assert(
      fc.property(text, text, (title, html) => {
        const expected = (value: string) => stripForbiddenXmlChars(value).trim();
        const atom = atomOf(buildAtomFeed(feed(title, html)));
        assert.equal(atom.entries?.[0]?.title?.value ?? '', expected(title));
        assert.equal(atom.entries?.[0]?.content?.value ?? '', expected(html));
        const rss = rssOf(buildRssFeed(feed(title, html)));
        assert.equal(rss.items?.[0]?.title ?? '', expected(title));
        assert.equal(rss.items?.[0]?.description ?? '', expected(html));
      }),
      { numRuns: 300 },
    );
  });
});

const decode = (text: string) =>
  text.replace(
    /&(quot|amp|lt|gt|#39|#10|#13|#9);/g,
    (_, name: string) =>
      ({ quot: '"', amp: '&', lt: '<', gt: '>', '#39': "'", '#10': '\n', '#13': '\r', '#9': '\t' })[name] ?? '',
  );
function metaOf(html: string, key: string): string | undefined {
  const match = new RegExp(`<meta (?:property|name)="${key}" content="([^"]*)">`).exec(html);
  return match?.[1] === undefined ? undefined : decode(match[1]);
}
function jsonLdOf(html: string): Record<string, unknown>[] {
  return [...html.matchAll(/<script type="application\/ld\+json">(.*?)<\/script>/gs)].map(
    (match) => JSON.parse(match[1] ?? '') as Record<string, unknown>,
  );
}

describe('share pages /a/{id}', () => {
  let id: number;
  before(async () => {
    id = await addBulletin(
      pub,
      `</title><script>alert(1)</script> "引号" 星聊 🚀`,
      '<h2>维护通知</h2><p>今晚 <b>22:00</b> 起维护&amp;升级。</p><p><img src="file/preview/0123456789abcdef-logo.svg">' +
        '<img src="https://img.example.com/banner.png?v=2&amp;s=1"></p>',
    );
  });

  test('title, summary, canonical address, Open Graph, Twitter and JSON-LD NewsArticle', async () => {
    const res = await pub.app.inject(`/a/${id}`);
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers['content-type'], 'text/html; charset=utf-8');
    const html = res.body;
    const title = `</title><script>alert(1)</script> "引号" 星聊 🚀`;
    assert.doesNotMatch(html, /<script>alert/);
    assert.equal(decode(/<title>([^<]*)<\/title>/.exec(html)?.[1] ?? ''), `${title} - 星聊`);
    const summary = '维护通知 今晚 22:00 起维护&升级。';
    assert.equal(metaOf(html, 'description'), summary);
    assert.match(html, new RegExp(`<link rel="canonical" href="${site}/a/${id}">`));
    assert.equal(metaOf(html, 'og:type'), 'article');
    assert.equal(metaOf(html, 'og:title'), title);
    assert.equal(metaOf(html, 'og:description'), summary);
    assert.equal(metaOf(html, 'og:url'), `${site}/a/${id}`);
    assert.equal(metaOf(html, 'og:site_name'), '星聊');
    assert.equal(metaOf(html, 'og:image'), 'https://img.example.com/banner.png?v=2&s=1', 'the first raster image');
    assert.equal(metaOf(html, 'twitter:card'), 'summary_large_image');
    assert.equal(metaOf(html, 'twitter:title'), title);
    assert.equal(metaOf(html, 'twitter:image'), 'https://img.example.com/banner.png?v=2&s=1');
    const [article] = jsonLdOf(html);
    assert.equal(article?.['@type'], 'NewsArticle');
    assert.equal(article?.headline, title);
    assert.equal(article?.description, summary);
    assert.equal(article?.url, `${site}/a/${id}`);
    assert.deepEqual(article?.image, ['https://img.example.com/banner.png?v=2&s=1']);
    assert.match(String(article?.datePublished), /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+08:00$/);
    assert.match(html, new RegExp(`<a data-continue href="${site}/#/announcement/${id}">阅读全文</a>`));
    assert.match(html, /<script src="\/a\/continue\.js" defer><\/script>/);
  });

  test('the page allows its own script file and style block and nothing inline', async () => {
    const res = await pub.app.inject(`/a/${id}`);
    const csp = String(res.headers['content-security-policy']);
    assert.match(csp, /default-src 'none'/);
    assert.match(csp, /script-src 'self'(;|$)/);
    assert.match(csp, /style-src 'sha256-[A-Za-z0-9+/]+=*'/);
    assert.doesNotMatch(csp, /unsafe-inline/);
    const script = await pub.app.inject('/a/continue.js');
    assert.equal(script.headers['content-type'], 'text/javascript; charset=utf-8');
    assert.match(script.body, /location\.replace/);
  });

  test('an announcement without a raster image offers its drawn picture, in the card and the JSON-LD', async () => {
    const plain = await addBulletin(pub, '纯文字', '<p>只有文字</p><img src="file/preview/0123456789abcdef-x.svg">');
    const html = (await pub.app.inject(`/a/${plain}`)).body;
    const picture = metaOf(html, 'og:image') ?? '';
    assert.match(picture, new RegExp(`^${site}/a/${plain}/picture\\.png\\?v=[\\w-]{16}$`));
    assert.equal(metaOf(html, 'og:image:width'), '1200');
    assert.equal(metaOf(html, 'twitter:card'), 'summary_large_image');
    assert.deepEqual(jsonLdOf(html)[0]?.image, [picture]);
  });

  test('unknown and malformed ids are an HTML 404 page', async () => {
    for (const bad of ['999999', '0', '-1', '01', 'abc', '1.5', '99999999999', '2147483648', '%3Cscript%3E']) {
      const res = await pub.app.inject(`/a/${bad}`);
      assert.equal(res.statusCode, 404, bad);
      assert.equal(res.headers['content-type'], 'text/html; charset=utf-8', bad);
      assert.match(res.body, /<title>未找到该公告 - 星聊<\/title>/);
      assert.match(res.body, /<meta name="robots" content="noindex">/);
    }
    const head = await pub.app.inject({ method: 'HEAD', url: '/a/999999' });
    assert.equal(head.statusCode, 404);
  });
});

describe('sitemap, robots.txt and the landing page', () => {
  test('the sitemap lists / and every share page, in every language, with its last change', async () => {
    const res = await local.app.inject({ url: '/sitemap.xml', headers: { host: 'site.test' } });
    assert.equal(res.headers['content-type'], 'application/xml; charset=utf-8');
    const urls = [...res.body.matchAll(/<url><loc>([^<]+)<\/loc><lastmod>([^<]+)<\/lastmod><\/url>/g)];
    assert.equal(urls.length, 39);
    assert.deepEqual(
      urls.slice(0, 3).map((url) => url[1]),
      ['http://site.test/', 'http://site.test/?lang=zh-TW', 'http://site.test/?lang=en'],
    );
    const page = (await local.app.inject('/v1/bulletin/page?page_size=100')).json<{ list: { id: number }[] }>();
    assert.deepEqual(
      urls
        .slice(3)
        .map((url) => url[1])
        .sort(),
      page.list
        .flatMap((item) => ['', '?lang=zh-TW', '?lang=en'].map((lang) => `http://site.test/a/${item.id}${lang}`))
        .sort(),
    );
    for (const url of urls) assert.match(url[2] ?? '', /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+08:00$/);
    assert.match(
      res.body,
      /^<\?xml version="1\.0" encoding="utf-8"\?>\n<urlset xmlns="http:\/\/www\.sitemaps\.org\/schemas\/sitemap\/0\.9">/,
    );
  });

  test('robots.txt lets every crawler in and names the sitemap', async () => {
    const res = await pub.app.inject('/robots.txt');
    assert.equal(res.headers['content-type'], 'text/plain; charset=utf-8');
    assert.equal(res.body, `User-agent: *\nAllow: /\n\nSitemap: ${site}/sitemap.xml\n`);
  });

  test('the page links both feeds and describes the app as a SoftwareApplication', async () => {
    const html = (await pub.app.inject('/')).body;
    assert.match(
      html,
      /<link rel="alternate" type="application\/atom\+xml" title="星聊 平台公告" href="\/feed\.atom">/,
    );
    assert.match(html, /<link rel="alternate" type="application\/rss\+xml" title="星聊 平台公告" href="\/feed\.rss">/);
    const [app] = jsonLdOf(html);
    assert.equal(app?.['@type'], 'SoftwareApplication');
    assert.equal(app?.name, '星聊');
    assert.equal(app?.url, `${site}/`);
    assert.deepEqual(app?.offers, { '@type': 'Offer', price: '0', priceCurrency: 'CNY' });
  });
});
