/**
 * `/dl/{os}` inside a chat app's built-in browser (docs/site.md#in-app-browsers): where the app
 * would drop the download, the server answers the guide page instead of the redirect, in the
 * visitor's language, with the address to open in the phone's browser; where the app lets it
 * through (WeChat and the App Store), and in every other browser, the redirect as before.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { parse } from 'parse5';
import { inAppAgents, ordinaryAgents } from '../../packages/contract/test/in-app-user-agents.js';
import { bearer, startTestApp, type TestApp } from './helpers.js';

const agentOf = (name: string) => inAppAgents.find((agent) => agent.name === name)?.userAgent ?? '';

let t: TestApp;
before(async () => {
  t = await startTestApp({ demo: true });
});
after(() => t.close());

const open = (url: string, userAgent: string, language = 'zh-CN') =>
  t.app.inject({ url, headers: { 'user-agent': userAgent, 'accept-language': language } });

/** The page's visible text, as a reader gets it (tags gone, entities read). */
function textOf(html: string): string {
  type Node = { nodeName: string; value?: string; childNodes?: Node[] };
  const walk = (node: Node): string =>
    node.nodeName === '#text' ? (node.value ?? '') : (node.childNodes ?? []).map(walk).join(' ');
  return walk(parse(html) as unknown as Node).replace(/\s+/g, ' ');
}

describe('/dl/{os} in a built-in browser that drops the download', () => {
  test('every app on Android gets the guide for the APK, never a redirect it would drop', async () => {
    for (const agent of inAppAgents.filter(({ name }) => name.includes('Android'))) {
      const res = await open('/dl/android', agent.userAgent);
      assert.equal(res.statusCode, 200, agent.name);
      assert.match(String(res.headers['content-type']), /^text\/html/);
      assert.equal(res.headers.location, undefined);
      assert.equal(res.headers['cache-control'], 'no-store');
      assert.match(String(res.headers.vary), /User-Agent/);
      assert.match(String(res.headers['content-security-policy']), /default-src 'none'/);
      const text = textOf(res.body);
      for (const words of ['请在浏览器中打开', '点击右上角的 ⋯', '选择“在浏览器中打开”', 'http://localhost/dl/android'])
        assert.ok(text.includes(words), `${agent.name}: ${words}`);
    }
  });

  test('on iOS it names Safari; the page follows the visitor’s language', async () => {
    const douyin = await open('/dl/mac', agentOf('Douyin on iOS'));
    assert.ok(textOf(douyin.body).includes('选择“在 Safari 中打开”'));
    const traditional = await open('/dl/android', agentOf('WeChat 8.0 on Android (XWEB)'), 'zh-TW');
    assert.ok(textOf(traditional.body).includes('請在瀏覽器中開啟'));
    assert.match(traditional.body, /<html lang="zh-TW">/);
    const english = await open('/dl/windows', agentOf('QQ on Android (TBS)'), 'en-US,en;q=0.9');
    assert.ok(textOf(english.body).includes('Open this page in your browser'));
  });

  test('what the app lets through is redirected: the App Store, except in Douyin and TikTok', async () => {
    const weChat = await open('/dl/ios', agentOf('WeChat 8.0 on iOS'));
    assert.equal(weChat.statusCode, 302);
    assert.match(String(weChat.headers.location), /^https:\/\/apps\.apple\.com\//);
    assert.equal((await open('/dl/ios', agentOf('Douyin on iOS'))).statusCode, 200);
    assert.equal((await open('/dl/ios', agentOf('TikTok on iOS'))).statusCode, 200);
  });

  test('any other browser, and a HEAD, get the redirect; a missing package is still a 404', async () => {
    for (const userAgent of Object.values(ordinaryAgents))
      assert.equal((await open('/dl/android', userAgent)).statusCode, 302, userAgent);
    const head = await t.app.inject({
      method: 'HEAD',
      url: '/dl/android',
      headers: { 'user-agent': agentOf('WeChat 8.0 on Android (XWEB)') },
    });
    assert.equal(head.statusCode, 302);
    assert.equal((await open('/dl/harmonyos', agentOf('WeChat 8.0 on Android (XWEB)'))).statusCode, 404);
  });

  test('the guide is not a download: the count moves only when the browser fetches it', async () => {
    const downloads = async () =>
      (await t.app.inject({ url: '/v1/admin/stats/downloads?days=7', headers: bearer }))
        .json<{
          days: { android: number }[];
        }>()
        .days.at(-1)?.android ?? 0;
    const before = await downloads();
    await open('/dl/android', agentOf('Weibo on Android'));
    assert.equal(await downloads(), before);
    // A client not seen today: one download per client, platform and day.
    await open('/dl/android', `${ordinaryAgents['Chrome on Android'] ?? ''} first-visit/1`);
    assert.equal(await downloads(), before + 1, 'the count this test reads does move');
  });

  test('an address that is no plain text is escaped in the page', async () => {
    const res = await t.app.inject({
      url: '/dl/android',
      headers: { 'user-agent': agentOf('WeChat 8.0 on Android (XWEB)'), host: 'a"b<c>.example' },
    });
    assert.ok(!res.body.includes('a"b<c>'), 'the host is escaped or refused');
  });
});
