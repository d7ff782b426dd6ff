/**
 * Announcements in every language the site speaks (docs/behaviour.md#announcements-in-every-language):
 * the traditional Chinese made by the real converter from the text only, the operator's own
 * version kept through later simplified edits until 重新转换, English by hand or the Chinese with
 * its language said, revisions carrying every version, and search in either script. On SQLite,
 * and on PostgreSQL with TEST_POSTGRES_URL.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { BulletinDetail, BulletinPage } from '@chat-site/contract';
import { AdminBulletin, AdminBulletinPage, Revision, RevisionList } from '@chat-site/contract/admin';
import { traditionalHtml, traditionalText } from '../src/lib/chinese-scripts.js';
import { startTestApp, type TestApp } from './helpers.js';
import { checked } from './checked.js';
import { adminCalls } from './admin-calls.js';

let t: TestApp;
before(async () => {
  t = await startTestApp();
});
after(() => t.close());

const { admin, createBulletin: create } = adminCalls(() => t.app);
const view = async (id: number) => checked(AdminBulletin, await admin('GET', `/bulletins/${id}`));
const detail = async (id: number, lang?: string) => {
  const res = await t.app.inject({ url: `/v1/bulletin/detail?id=${id}${lang === undefined ? '' : `&lang=${lang}`}` });
  return checked(BulletinDetail, res);
};

describe('the converter', () => {
  test('turns phrases into their Taiwan forms, not character by character', () => {
    const pairs = { 软件: '軟體', 信息: '資訊', 鼠标: '滑鼠', 打印机: '印表機', 内存: '記憶體', 网络: '網路' };
    for (const [simplified, taiwan] of Object.entries(pairs)) assert.equal(traditionalText(simplified), taiwan);
  });

  test('converts the text of a body and leaves tags, addresses, pictures and code as written', () => {
    const body =
      '<p>新版软件<a href="https://example.com/软件?a=1&amp;b=2" title="软件信息">下载信息</a>&amp;说明</p>' +
      '<p><img src="file/preview/软件.png" alt="网络"></p><pre><code>const 软件 = "信息";</code></pre>' +
      '<p>请用<code>打印机</code>打印后再<strong>发送</strong></p>';
    assert.equal(
      traditionalHtml(body),
      '<p>新版軟體<a href="https://example.com/软件?a=1&amp;b=2" title="软件信息">下載資訊</a>&amp;說明</p>' +
        '<p><img src="file/preview/软件.png" alt="网络"></p><pre><code>const 软件 = "信息";</code></pre>' +
        '<p>請用<code>打印机</code>列印後再<strong>傳送</strong></p>',
    );
  });
});

describe('the versions of an announcement', () => {
  test('a save makes the traditional version, and the public API answers in the language asked', async () => {
    const id = await create({ title: '软件更新', content: '<p>新的信息</p>' });
    const made = await view(id);
    assert.deepEqual([made.title_tw, made.content_tw, made.tw_by_hand], ['軟體更新', '<p>新的資訊</p>', 0]);
    assert.deepEqual(await detail(id, 'zh-TW'), {
      ...(await detail(id)),
      Title: '軟體更新',
      Content: '<p>新的資訊</p>',
      Lang: 'zh-TW',
    });
    assert.equal((await detail(id, 'zh-HK')).Lang, 'zh-TW', 'any traditional Chinese tag is zh-TW');
    assert.equal((await detail(id)).Lang, 'zh-CN');
    // No English written: the Chinese, saying it is Chinese.
    assert.deepEqual([(await detail(id, 'en')).Title, (await detail(id, 'en')).Lang], ['软件更新', 'zh-CN']);
    await admin('PUT', `/bulletins/${id}`, { title_en: 'Software update', content_en: '<p>News</p>' });
    assert.deepEqual([(await detail(id, 'en')).Title, (await detail(id, 'en')).Lang], ['Software update', 'en']);
    const page = checked(BulletinPage, await t.app.inject({ url: '/v1/bulletin/page?lang=zh-TW' }));
    const row = page.list.find((item) => item.id === id);
    assert.deepEqual([row?.title, row?.lang], ['軟體更新', 'zh-TW']);
  });

  test("the operator's traditional version survives later simplified edits until 重新转换", async () => {
    const id = await create({ title: '软件', content: '<p>信息</p>' });
    await admin('PUT', `/bulletins/${id}`, { content_tw: '<p>我們自己寫的訊息</p>' });
    assert.deepEqual([(await view(id)).title_tw, (await view(id)).tw_by_hand], ['軟體', 1]);
    await admin('PUT', `/bulletins/${id}`, { title: '网络', content: '<p>新的信息</p>' });
    const kept = await view(id);
    assert.deepEqual([kept.title, kept.content_tw, kept.title_tw], ['网络', '<p>我們自己寫的訊息</p>', '軟體']);
    assert.equal((await detail(id, 'zh-TW')).Content, '<p>我們自己寫的訊息</p>');
    await admin('PUT', `/bulletins/${id}`, { reconvert: 1 });
    const following = await view(id);
    assert.deepEqual([following.title_tw, following.content_tw, following.tw_by_hand], ['網路', '<p>新的資訊</p>', 0]);
  });

  test('revisions carry every version, and writing one back restores them', async () => {
    const id = await create({ title: '软件', content: '<p>一</p>', title_en: 'Software', content_tw: '<p>手寫</p>' });
    await admin('PUT', `/bulletins/${id}`, { title: '二', title_en: '', content_en: '', reconvert: 1 });
    const [, first] = checked(RevisionList, await admin('GET', `/bulletins/${id}/revisions`)).list;
    const revision = checked(Revision, await admin('GET', `/bulletins/${id}/revisions/${first?.id}`));
    assert.deepEqual([revision.content_tw, revision.tw_by_hand, revision.title_en], ['<p>手寫</p>', 1, 'Software']);
    const restored = await admin('POST', `/bulletins/${id}/revisions/${first?.id}/restore`, {});
    assert.equal(restored.statusCode, 200, restored.body);
    const back = await view(id);
    assert.deepEqual([back.content_tw, back.tw_by_hand, back.title_en], ['<p>手寫</p>', 1, 'Software']);
  });

  test('a body written by hand is cleaned like the simplified one', async () => {
    const id = await create({ title: '清理', content_tw: '<p onclick="x()">文<script>bad()</script></p>' });
    assert.equal((await view(id)).content_tw, '<p>文</p>');
  });

  test('the console finds an announcement by a query in either script', async () => {
    const id = await create({ title: '打印机驱动更新', content: '<p>请下载新的网络设置</p>' });
    // The body's words typed in traditional: only the simplified body text holds them.
    for (const q of ['印表機', '打印机', '下載新的網路設定', '下载新的网络设置']) {
      const found = checked(AdminBulletinPage, await admin('GET', `/bulletins?q=${encodeURIComponent(q)}`));
      assert.ok(
        found.list.some((item) => item.id === id),
        q,
      );
    }
  });
});

describe('share pages, pictures and feeds', () => {
  test("a share page follows the visitor's language, names the others, and draws its picture in it", async () => {
    const id = await create({ title: '软件更新', content: '<p>新的信息</p>', title_en: 'Software update' });
    const share = (headers: Record<string, string>, query = '') =>
      t.app.inject({ url: `/a/${id}${query}`, headers: { host: 'site.test', ...headers } });
    const taiwan = await share({ 'accept-language': 'zh-TW,zh;q=0.9' });
    assert.match(taiwan.body, /<html lang="zh-TW">/);
    assert.match(taiwan.body, /<h1>軟體更新<\/h1>/);
    assert.match(taiwan.body, /<meta property="og:title" content="軟體更新">/);
    assert.match(taiwan.body, /<meta property="og:locale" content="zh_TW">/);
    assert.match(taiwan.body, new RegExp(`<link rel="canonical" href="http://site.test/a/${id}\\?lang=zh-TW">`));
    assert.match(taiwan.body, new RegExp(`href="http://site.test/\\?lang=zh-TW#/announcement/${id}">閱讀全文`));
    for (const [lang, query] of [
      ['zh-CN', ''],
      ['zh-TW', '?lang=zh-TW'],
      ['en', '?lang=en'],
      ['x-default', ''],
    ]) {
      assert.match(
        taiwan.body,
        new RegExp(
          `<link rel="alternate" hreflang="${lang}" href="http://site.test/a/${id}${(query ?? '').replace('?', '\\?')}">`,
        ),
      );
    }
    assert.match(String(taiwan.headers.vary), /accept-language/i);
    const english = await share({}, '?lang=en');
    assert.match(english.body, /<html lang="en">/);
    assert.match(english.body, /<h1>Software update<\/h1>/);
    assert.match((await share({})).body, /<h1>软件更新<\/h1>/);
    // The picture the page names is the one the picture's address draws: its version (the ETag)
    // is made from the traditional title, not the simplified one the default page names.
    const pictureOf = (body: string) => {
      const url = new URL(
        /<meta property="og:image" content="([^"]+)">/.exec(body)?.[1]?.replaceAll('&amp;', '&') ?? '',
      );
      return { path: `${url.pathname}${url.search}`, version: url.searchParams.get('v') ?? '' };
    };
    const drawn = pictureOf(taiwan.body);
    assert.notEqual(drawn.version, pictureOf((await share({})).body).version);
    const again = await t.app.inject({ url: drawn.path, headers: { 'if-none-match': `"${drawn.version}"` } });
    assert.equal(again.statusCode, 304, drawn.path);
  });

  test('feeds exist per language', async () => {
    await create({ title: '网络维护通知', content: '<p>今晚维护</p>' });
    const feed = await t.app.inject({ url: '/feed.atom?lang=zh-TW', headers: { host: 'site.test' } });
    assert.match(feed.body, /xml:lang="zh-TW"/);
    assert.match(feed.body, /網路維護通知/);
    assert.doesNotMatch(feed.body, /网络维护通知/);
    const rss = await t.app.inject({ url: '/feed.rss?lang=en', headers: { host: 'site.test' } });
    assert.match(rss.body, /<language>en<\/language>/);
    assert.match((await t.app.inject('/feed.atom')).body, /网络维护通知/);
  });
});
