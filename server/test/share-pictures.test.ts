/**
 * Share pictures (og:image) on a real database: the PNG each announcement and the site get, its
 * cache headers, and the pages' tags as a link previewer's scraper (open-graph-scraper) reads
 * them from the server over HTTP.
 */
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import ogs from 'open-graph-scraper';
import { PNG } from 'pngjs';
import { pictureCounts, pictureRefusals } from '../src/lib/metrics.js';
import { PictureThread, pictureThread } from '../src/reach/picture/drawer.js';
import { siteCardOf } from '../src/reach/picture/pictures.js';
import { toWireTime } from '../src/lib/time.js';
import { bearer, startTestApp, type TestApp } from './helpers.js';

let t: TestApp;
let origin: string;
before(async () => {
  t = await startTestApp();
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  origin = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
});
after(async () => {
  await t.close();
  await pictureThread.stop();
});

async function addBulletin(
  title: string,
  content = '<p>正文</p>',
  extra: Record<string, unknown> = {},
): Promise<number> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/v1/admin/bulletins',
    headers: bearer,
    payload: { title, content, ...extra },
  });
  assert.equal(res.statusCode, 201, res.body);
  return res.json<{ id: number }>().id;
}

/** What a link previewer reads from a page: fetched over HTTP like the real scrapers do. */
async function scrape(path: string) {
  const { result, error } = await ogs({ url: `${origin}${path}` });
  assert.equal(error, false);
  return result;
}

function dimensions(png: Buffer): [number, number] {
  const image = PNG.sync.read(png);
  return [image.width, image.height];
}

describe("an announcement's picture", () => {
  test('the share page names a 1200x630 PNG with its alt text and a large Twitter card', async () => {
    const id = await addBulletin('春节期间客服时间调整通知');
    const page = await scrape(`/a/${id}`);
    const [image] = page.ogImage ?? [];
    assert.match(image?.url ?? '', new RegExp(`^${origin}/a/${id}/picture\\.png\\?v=[\\w-]{16}$`));
    assert.equal(Number(image?.width), 1200);
    assert.equal(Number(image?.height), 630);
    assert.equal(image?.type, 'image/png');
    assert.equal(image?.alt, '星聊 公告：春节期间客服时间调整通知');
    assert.equal(page.twitterCard, 'summary_large_image');
    assert.equal(page.twitterImage?.[0]?.url, image?.url);

    const res = await fetch(image?.url ?? '');
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'image/png');
    assert.equal(res.headers.get('cache-control'), 'public, max-age=31536000, immutable');
    assert.deepEqual(dimensions(Buffer.from(await res.arrayBuffer())), [1200, 630]);
  });

  test('drawn once: the second request is answered from memory; HEAD and If-None-Match too', async () => {
    const id = await addBulletin('Scheduled maintenance on Saturday night');
    const draws = pictureCounts.draws;
    const hits = pictureCounts.hits;
    const first = await t.app.inject(`/a/${id}/picture.png`);
    assert.equal(pictureCounts.draws, draws + 1);
    const second = await t.app.inject(`/a/${id}/picture.png`);
    assert.equal(pictureCounts.draws, draws + 1, 'not drawn again');
    assert.equal(pictureCounts.hits, hits + 1);
    assert.deepEqual(second.rawPayload, first.rawPayload);
    assert.equal(first.headers['cache-control'], 'public, max-age=0, must-revalidate', 'no version asked: revalidated');

    const head = await t.app.inject({ method: 'HEAD', url: `/a/${id}/picture.png` });
    assert.equal(head.statusCode, 200);
    assert.equal(head.headers['content-type'], 'image/png');
    assert.equal(head.headers['content-length'], String(first.rawPayload.length));
    assert.equal(head.body, '');
    const again = await t.app.inject({
      url: `/a/${id}/picture.png`,
      headers: { 'if-none-match': String(first.headers.etag) },
    });
    assert.equal(again.statusCode, 304);
    assert.equal(pictureCounts.draws, draws + 1);
  });

  test('a new title is a new picture at a new address', async () => {
    const id = await addBulletin('旧标题');
    const before = await scrape(`/a/${id}`);
    const oldUrl = before.ogImage?.[0]?.url ?? '';
    const oldPng = Buffer.from(await (await fetch(oldUrl)).arrayBuffer());
    const edit = await t.app.inject({
      method: 'PUT',
      url: `/v1/admin/bulletins/${id}`,
      headers: bearer,
      payload: { title: '新标题：服务升级完成', version: 1 },
    });
    assert.equal(edit.statusCode, 200, edit.body);
    const newUrl = (await scrape(`/a/${id}`)).ogImage?.[0]?.url ?? '';
    assert.notEqual(newUrl, oldUrl);
    const newPng = Buffer.from(await (await fetch(newUrl)).arrayBuffer());
    assert.deepEqual(dimensions(newPng), [1200, 630]);
    assert.notDeepEqual(newPng, oldPng);
    const stale = await fetch(oldUrl);
    assert.equal(
      stale.headers.get('cache-control'),
      'public, max-age=0, must-revalidate',
      'the old version is not kept for a year',
    );
    assert.deepEqual(Buffer.from(await stale.arrayBuffer()), newPng, 'an old address shows the current picture');
  });

  test('a raster picture in the body stands in, with its type; an SVG never does', async () => {
    const id = await addBulletin(
      '带图公告',
      '<p><img src="file/preview/0123456789abcdef-logo.svg"><img src="file/preview/0123456789abcdef-banner.webp"></p>',
    );
    const page = await scrape(`/a/${id}`);
    const [image] = page.ogImage ?? [];
    assert.equal(image?.url, `${origin}/v1/file/preview/0123456789abcdef-banner.webp`);
    assert.equal(image?.type, 'image/webp');
    assert.equal(image?.width, undefined, 'its size is not known: none is claimed');
    assert.equal(page.twitterCard, 'summary_large_image');
    const svgOnly = await addBulletin('只有矢量图', '<p><img src="file/preview/0123456789abcdef-logo.svg"></p>');
    assert.match((await scrape(`/a/${svgOnly}`)).ogImage?.[0]?.url ?? '', /\/picture\.png\?v=/);
  });

  test('unknown, malformed, draft and scheduled announcements have no picture', async () => {
    const draft = await addBulletin('草稿', '<p>x</p>', { state: 'draft' });
    const tomorrow = toWireTime(new Date(Date.now() + 86_400_000).toISOString(), t.config.timeZone);
    const later = await addBulletin('定时', '<p>x</p>', { publish_at: tomorrow });
    for (const id of ['999999', '0', 'abc', '99999999999', String(draft), String(later)]) {
      const res = await t.app.inject(`/a/${id}/picture.png`);
      assert.equal(res.statusCode, 404, id);
      assert.equal(res.headers['content-type'], 'application/json; charset=utf-8', id);
    }
  });
});

describe("the site's picture", () => {
  test('the page names it on PUBLIC_URL; it is a 1200x630 PNG kept for a year at its version', async () => {
    const site = 'https://chat.example.com';
    const pub = await startTestApp({ env: { PUBLIC_URL: site } });
    const html = (await pub.app.inject('/')).body;
    await pub.close();
    const { result: page } = await ogs({ html });
    const [image] = page.ogImage ?? [];
    const url = new URL(image?.url ?? '');
    assert.equal(url.origin, site);
    assert.equal(url.pathname, '/site-picture.png');
    assert.match(url.search, /^\?v=[\w-]{16}$/);
    assert.equal(Number(image?.width), 1200);
    assert.equal(Number(image?.height), 630);
    assert.equal(image?.type, 'image/png');
    assert.equal(image?.alt, '星聊 标志与名称');
    assert.equal(page.twitterCard, 'summary_large_image');
    assert.equal(page.twitterImage?.[0]?.url, image?.url);
    const res = await t.app.inject(`${url.pathname}${url.search}`);
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers['cache-control'], 'public, max-age=31536000, immutable');
    assert.deepEqual(dimensions(res.rawPayload), [1200, 630]);
  });
});

describe('drawing', () => {
  test('happens on the drawing thread: the main thread never loads satori or resvg', async () => {
    const id = await addBulletin('在另一个线程上绘制');
    const res = await t.app.inject(`/a/${id}/picture.png`);
    assert.equal(res.statusCode, 200);
    assert.deepEqual(dimensions(res.rawPayload), [1200, 630]);
    assert.ok(pictureThread.running);
    const loaded = Object.keys(createRequire(import.meta.url).cache);
    assert.deepEqual(
      loaded.filter((file) => /node_modules\/(satori|@resvg)\//.test(file)),
      [],
      'satori and resvg are loaded by the thread only',
    );
  });

  test('warming starts a thread of its own that lays the card out, and the picture asked next is drawn on it', async () => {
    const thread = new PictureThread();
    try {
      await thread.warm(siteCardOf('预热'));
      assert.ok(thread.running, 'the warmed thread stays up for the next picture');
      assert.deepEqual(dimensions(await thread.draw(siteCardOf('预热之后'))), [1200, 630]);
    } finally {
      await thread.stop();
    }
  });

  test('a client has at most two pictures drawn at once: a third is refused with 429 and counted', async () => {
    const ids = [await addBulletin('预算一'), await addBulletin('预算二'), await addBulletin('预算三')];
    const refused = pictureRefusals.clientBudget;
    const ask = (id: number, remoteAddress: string) => t.app.inject({ url: `/a/${id}/picture.png`, remoteAddress });
    const answers = await Promise.all(ids.map((id) => ask(id, '203.0.113.9')));
    // Which of the three comes third to the budget depends on its database reading, not on the
    // order they were sent.
    assert.deepEqual(answers.map((res) => res.statusCode).sort(), [200, 200, 429]);
    const third = answers.findIndex((res) => res.statusCode === 429);
    const refusedAnswer = answers[third];
    assert.ok(Number(refusedAnswer?.headers['retry-after']) > 0);
    assert.equal(refusedAnswer?.headers['cache-control'], 'no-store');
    assert.equal(refusedAnswer?.json<{ status: number }>().status, 429);
    assert.equal(pictureRefusals.clientBudget, refused + 1);
    const refusedId = ids[third] ?? 0;
    assert.equal((await ask(refusedId, '203.0.113.10')).statusCode, 200, 'another client is drawn it');
    assert.equal((await ask(refusedId, '203.0.113.9')).statusCode, 200, 'a picture held costs no budget');
  });
});
