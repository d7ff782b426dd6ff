/**
 * Every address a link is shared by carries a complete preview, as a link previewer's scraper
 * (open-graph-scraper, over HTTP) reads it from the real built server: the site's page in each
 * language, its changelog screen (whose hash never reaches the server) and an announcement's
 * share page each have og:title, og:type, og:url, og:description, og:image and twitter:title,
 * and the title names the product of the site config (docs/reach.md#feeds-share-pages-and-search-engines).
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import ogs from 'open-graph-scraper';
import { adminApi } from './support/admin-api.js';
import { repoRoot, startServer, type RunningServer } from './support/server.js';

const publicUrl = 'https://chat.example.com';
/** Not the committed config's name, so that nothing can be the build's own; with an ampersand
 * and quotes that the tags must escape. */
const product = 'Xing "Talk" & Co';
const pageTitles = {
  'zh-CN': `${product} - 下载与公告`,
  'zh-TW': `${product} - 下載與公告`,
  en: `${product} - Download and announcements`,
} as const;

let server: RunningServer;
let configDir: string;
before(async () => {
  configDir = mkdtempSync(join(tmpdir(), 'chat-site-share-tags-'));
  const siteConfig = JSON.parse(readFileSync(join(repoRoot, 'site.config.json'), 'utf8')) as object;
  writeFileSync(join(configDir, 'site.config.json'), JSON.stringify({ ...siteConfig, productName: product }));
  server = await startServer({ PUBLIC_URL: publicUrl, SITE_CONFIG: join(configDir, 'site.config.json') });
});
after(async () => {
  await server?.stop();
  if (configDir !== undefined) rmSync(configDir, { recursive: true, force: true });
});

async function scrape(path: string) {
  const { result, error, html } = await ogs({ url: `${server.url}${path}` });
  assert.equal(error, false, path);
  return { result, html };
}

/** The page's own <title> and <meta name="description">, as the scraper reads them for a page
 * without Open Graph or Twitter tags. */
async function ownWords(html: string) {
  const { result } = await ogs({ html: html.replace(/<meta (property="og|name="twitter):[^>]*>/g, '') });
  return { title: result.ogTitle, description: result.ogDescription };
}

describe("the site's page", () => {
  for (const [language, title] of Object.entries(pageTitles)) {
    test(`in ${language}: a website titled with the product, at PUBLIC_URL, with its picture`, async () => {
      const { result: page, html } = await scrape(`/?lang=${language}`);
      assert.equal(page.ogType, 'website');
      assert.equal(page.ogTitle, title);
      assert.equal(page.twitterTitle, title);
      assert.equal(page.ogUrl, `${publicUrl}/`);
      assert.ok((page.ogDescription ?? '').length > 10, 'a description');
      const own = await ownWords(html);
      assert.equal(own.title, title, 'the <title> names the product');
      assert.equal(page.ogDescription, own.description, "the page's own description");
      assert.match(page.ogImage?.[0]?.url ?? '', new RegExp(`^${publicUrl}/site-picture\\.png\\?v=`));
      assert.equal(page.twitterCard, 'summary_large_image');
    });
  }

  test('at /index.html and at the changelog screen, the same preview', async () => {
    const { result: home } = await scrape('/');
    for (const path of ['/index.html', '/#/changelog', '/?lang=zh-CN#/announcements']) {
      const { result: page } = await scrape(path);
      for (const field of ['ogType', 'ogTitle', 'ogUrl', 'ogDescription', 'twitterTitle'] as const)
        assert.equal(page[field], home[field], `${path} ${field}`);
      assert.equal(page.ogImage?.[0]?.url, home.ogImage?.[0]?.url, path);
    }
    assert.equal(home.ogTitle, pageTitles['zh-CN']);
  });
});

test("an announcement's share page: an article, its title naming the product", async () => {
  const { id } = await adminApi<{ id: number }>(server, 'POST', '/bulletins', {
    title: '服务升级通知',
    content: '<p>今晚 23:00 起升级，约半小时。</p>',
  });
  const { result: page, html } = await scrape(`/a/${id}`);
  assert.equal(page.ogType, 'article');
  assert.equal(page.ogTitle, '服务升级通知');
  assert.equal(page.twitterTitle, '服务升级通知');
  assert.equal(page.ogUrl, `${publicUrl}/a/${id}`);
  assert.equal(page.ogDescription, '今晚 23:00 起升级，约半小时。');
  assert.match(page.ogImage?.[0]?.url ?? '', new RegExp(`^${publicUrl}/a/${id}/picture\\.png\\?v=`));
  const title = /<title>([^<]*)<\/title>/.exec(html ?? '')?.[1];
  assert.equal(title, '服务升级通知 - Xing &quot;Talk&quot; &amp; Co');
});
