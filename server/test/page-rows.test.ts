/**
 * The announcements screen's first rows in the page (docs/site.md#screens-and-routes): written by the
 * server into the screen's frame from the public list, changed with it (cache entry and ETag),
 * and left out when the site's API is another server. On SQLite, and on PostgreSQL with
 * TEST_POSTGRES_URL.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { toWireTime } from '../src/lib/time.js';
import { earlyRowCount } from '../src/page/early-rows.js';
import { adminCalls } from './admin-calls.js';
import { readUntil, repoRoot, startTestApp, type TestApp } from './helpers.js';

// The announcements frame as web/build/prerender.ts writes it: the loading line, then the two
// sample rows (the first selected and pinned, the other neither).
const sampleRow = (id: string, first: boolean) =>
  `<li><a${first ? ' aria-current="true"' : ''} href="#/announcement/${id}" class="row">` +
  '<span class="flex">' +
  (first ? '<span data-field="pinned" class="mark">置顶</span>' : '') +
  '<span data-field="title" class="title"></span></span><span data-field="date" class="date"></span></a></li>';
const frame =
  '<template data-route="/announcements" data-early-call="bulletin/page" data-early-script="/e.js">' +
  '<div data-prerender="/announcements"><main><p role="status" data-loading="" class="py-16">' +
  '<span class="spin"></span>加载中...</p></main></div><template data-early-rows><div class="columns"><section>' +
  `<h1>平台公告</h1><nav><ul class="list">${sampleRow('1', true)}${sampleRow('2', false)}</ul></nav></section></div>` +
  '</template></template>';
const page = (lang: string) =>
  `<!doctype html><html lang="${lang}"><head><title>x</title></head><body><div id="root"></div>${frame}</body></html>`;

function webRoot(): string {
  const root = mkdtempSync(join(tmpdir(), 'web-rows-'));
  writeFileSync(join(root, 'index.html'), page('zh-CN'));
  writeFileSync(join(root, 'index.en.html'), page('en'));
  return root;
}

interface Row {
  title: string;
  date: string;
  pinned: boolean;
  href: string;
  selected: boolean;
}

/** The rows written into the page, as a visitor's browser would read them. */
function rowsOf(html: string): Row[] {
  const decode = (text: string) =>
    text.replace(
      /&(lt|gt|amp|quot|#39);/g,
      (_, name: string) => ({ lt: '<', gt: '>', amp: '&', quot: '"', '#39': "'" })[name] ?? '',
    );
  return [...html.matchAll(/<li>(.*?)<\/li>/g)].map(([, row = '']) => ({
    title: decode(/data-field="title"[^>]*>([^<]*)</.exec(row)?.[1] ?? ''),
    date: /data-field="date"[^>]*>([^<]*)</.exec(row)?.[1] ?? '',
    pinned: row.includes('data-field="pinned"'),
    href: /href="([^"]*)"/.exec(row)?.[1] ?? '',
    selected: row.includes('aria-current="true"'),
  }));
}

describe('the announcements screen’s first rows in the page', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp({ env: { WEB_ROOT: webRoot() } });
  });
  after(() => t.close());
  const { admin, createBulletin: create } = adminCalls(() => t.app);
  const getPage = async (headers: Record<string, string> = {}) => t.app.inject({ url: '/', headers });
  const wire = (ms: number) => toWireTime(new Date(Date.now() + ms).toISOString(), t.config.timeZone);

  test('with no announcement the frame is the build’s: its loading line and sample rows', async () => {
    const res = await getPage();
    assert.ok(res.body.includes(frame), 'the frame as built');
  });

  test('the public list’s first rows, in its order and the page’s language, titles escaped', async () => {
    const older = await create({ title: '<b>维护</b> & "通知" \'旧\'' });
    const pinned = await create({ title: '置顶公告', topup: 1 });
    await create({ title: '草稿', state: 'draft' });
    const html = (await getPage()).body;
    assert.doesNotMatch(html, /data-loading|data-early-rows|<b>/);
    const list = (await t.app.inject('/v1/bulletin/page?page_size=100')).json<{
      list: { id: number; created_at: string }[];
    }>().list;
    const date = (id: number) => list.find((item) => item.id === id)?.created_at.slice(0, 10) ?? '';
    assert.deepEqual(rowsOf(html), [
      { title: '置顶公告', date: date(pinned), pinned: true, href: `#/announcement/${pinned}`, selected: true },
      {
        title: '<b>维护</b> & "通知" \'旧\'',
        date: date(older),
        pinned: false,
        href: `#/announcement/${older}`,
        selected: false,
      },
    ]);
    // The first title is the mark web/src/boot-route.ts takes the list as drawn by.
    assert.match(html, /data-field="title" elementtiming="early-list"[^>]*>置顶公告</);
    // Dates as the screen writes them in English.
    const english = rowsOf((await getPage({ 'accept-language': 'en' })).body);
    assert.match(english[0]?.date ?? '', /^[A-Z][a-z]{2} \d{1,2}, \d{4}$/);
  });

  test('as many rows as a phone shows, from a longer list', async () => {
    for (let index = 0; index < earlyRowCount + 2; index += 1) await create({ title: `第${index}条` });
    const rows = rowsOf((await getPage()).body);
    assert.equal(rows.length, earlyRowCount);
    assert.equal(rows[0]?.title, '置顶公告');
    assert.equal(rows[1]?.title, `第${earlyRowCount + 1}条`, 'newest first after the pinned');
  });

  test('a publication, an unpublication or a pin is in the next page, under a new ETag', async () => {
    const first = await getPage();
    const id = await create({ title: '新公告' });
    const published = await getPage({ 'if-none-match': String(first.headers.etag) });
    assert.equal(published.statusCode, 200);
    assert.notEqual(published.headers.etag, first.headers.etag);
    assert.ok(rowsOf(published.body).some((row) => row.title === '新公告'));
    await admin('PUT', `/bulletins/${id}`, { topup: 1 });
    assert.deepEqual(
      rowsOf((await getPage()).body)
        .filter((row) => row.pinned)
        .map((row) => row.title),
      ['新公告', '置顶公告'],
    );
    await admin('PUT', `/bulletins/${id}`, { state: 'draft' });
    const unpublished = await getPage({ 'if-none-match': String(published.headers.etag) });
    assert.equal(unpublished.statusCode, 200);
    assert.equal(
      rowsOf(unpublished.body).some((row) => row.title === '新公告'),
      false,
    );
  });

  test('a scheduled announcement comes into the page at its time, with no write', async () => {
    const id = await create({ title: '定时上线', publish_at: wire(4000) });
    assert.equal(
      rowsOf((await getPage()).body).some((row) => row.href.endsWith(`/${id}`)),
      false,
    );
    // The schedule check marks content changed once the time has passed: the read waits for that.
    const rows = await readUntil(
      t.app,
      async () => rowsOf((await getPage()).body),
      (seen) => seen.some((row) => row.href.endsWith(`/${id}`)),
    );
    assert.ok(rows.some((row) => row.title === '定时上线'));
  });
});

describe('the page of a site whose API is another server', () => {
  let t: TestApp;
  before(async () => {
    const site = JSON.parse(readFileSync(join(repoRoot, 'site.config.json'), 'utf8')) as object;
    const siteFile = join(mkdtempSync(join(tmpdir(), 'site-')), 'site.json');
    writeFileSync(siteFile, JSON.stringify({ ...site, apiAddrs: ['https://api.example.com'] }));
    t = await startTestApp({ env: { WEB_ROOT: webRoot(), SITE_CONFIG: siteFile } });
  });
  after(() => t.close());

  test('keeps the build’s frame: that API’s list may not be this one’s', async () => {
    await adminCalls(() => t.app).createBulletin({ title: '本机公告' });
    const html = (await t.app.inject('/')).body;
    assert.ok(html.includes(frame));
    assert.doesNotMatch(html, /本机公告/);
  });
});
