/**
 * Release notes in every language the site speaks (docs/behaviour.md#release-notes-in-every-language):
 * the traditional made at publishing by the real converter unless the operator wrote it, English
 * by hand, and the package list, the changelog and its feed in the language asked. On SQLite,
 * and on PostgreSQL with TEST_POSTGRES_URL.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import fc from 'fast-check';
import type { InstallPackageList } from '@chat-site/contract';
import { Release } from '@chat-site/contract/admin';
import { checked } from './checked.js';
import { bearer, startTestApp, type TestApp } from './helpers.js';

let t: TestApp;
before(async () => {
  t = await startTestApp();
});
after(() => t.close());

const publish = async (payload: object) => {
  const res = await t.app.inject({ method: 'POST', url: '/v1/admin/releases', headers: bearer, payload });
  assert.equal(res.statusCode, 201, res.body);
  return checked(Release, res);
};

const entryOf = async (os: string, query = '') => {
  const res = await t.app.inject({ url: `/v1/common/getInstallPackageAddrs${query}` });
  assert.equal(res.statusCode, 200, res.body);
  return res.json<InstallPackageList>().find((entry) => entry.OS === os);
};

const changelog = async (query = '') => {
  const res = await t.app.inject({ url: `/v1/common/changelog${query}` });
  assert.equal(res.statusCode, 200, res.body);
  return res.json<{ app_version: string; update_desc: string; lang?: string }[]>();
};

const notes = '修复了打印机的问题\n软件启动更快';
const converted = '修復了印表機的問題\n軟體啟動更快';

test('publishing makes the traditional notes with the real converter', async () => {
  const release = await publish({ os: 'windows', url: 'https://dl.example.com/a-1.0.0.exe', version: '1.0.0', notes });
  assert.deepEqual([release.notes_tw, release.notes_tw_by_hand, release.notes_en], [converted, false, null]);
});

test("the operator's own traditional notes and English notes are stored as written", async () => {
  const release = await publish({
    os: 'android',
    url: 'https://dl.example.com/a-2.0.0.apk',
    version: '2.0.0',
    notes,
    notes_tw: '親手寫的說明',
    notes_en: 'Printing fixed',
  });
  assert.deepEqual(
    [release.notes_tw, release.notes_tw_by_hand, release.notes_en],
    ['親手寫的說明', true, 'Printing fixed'],
  );
  const blank = await publish({
    os: 'mac',
    url: 'https://dl.example.com/a-1.dmg',
    version: '1.0.0',
    notes,
    notes_tw: ' ',
  });
  assert.deepEqual([blank.notes_tw, blank.notes_tw_by_hand], [converted, false], 'blank is the same as none');
});

test('the package list answers in the language asked and says which, and as before without lang', async () => {
  await publish({ os: 'ios', url: 'https://dl.example.com/a.ipa', version: '3.0.0', notes, notes_en: 'Faster start' });
  assert.deepEqual([(await entryOf('ios'))?.notes, 'notes_lang' in ((await entryOf('ios')) ?? {})], [notes, false]);
  assert.deepEqual(await entryOf('ios', '?lang=zh-Hant'), {
    ...(await entryOf('ios')),
    notes: converted,
    notes_lang: 'zh-TW',
  });
  assert.deepEqual(await entryOf('ios', '?lang=en'), {
    ...(await entryOf('ios')),
    notes: 'Faster start',
    notes_lang: 'en',
  });
  const windows = await entryOf('windows', '?lang=en');
  assert.deepEqual([windows?.notes, windows?.notes_lang], [notes, 'zh-CN'], 'no English: the Chinese, said to be');
});

test('the changelog and its feed answer in the language asked', async () => {
  const entry = async (query?: string) => (await changelog(query)).find((release) => release.app_version === '3.0.0');
  assert.deepEqual([(await entry())?.update_desc, (await entry())?.lang], [notes, undefined], 'as before without lang');
  assert.deepEqual([(await entry('?lang=zh-CN'))?.update_desc, (await entry('?lang=zh-CN'))?.lang], [notes, 'zh-CN']);
  assert.deepEqual(
    [(await entry('?lang=zh-TW'))?.update_desc, (await entry('?lang=zh-TW'))?.lang],
    [converted, 'zh-TW'],
  );
  assert.deepEqual([(await entry('?lang=en'))?.update_desc, (await entry('?lang=en'))?.lang], ['Faster start', 'en']);
  const feed = await t.app.inject({ url: '/changelog.atom?lang=zh-TW' });
  assert.equal(feed.statusCode, 200);
  assert.match(feed.body, /xml:lang="zh-TW"/);
  assert.ok(feed.body.includes('修復了印表機的問題'), feed.body);
  assert.ok((await t.app.inject({ url: '/changelog.atom' })).body.includes('修复了打印机的问题'));
});

test("the package list's PUT keeps the versions of notes it keeps, and converts new notes", async () => {
  const put = async (entry: object) => {
    const res = await t.app.inject({ method: 'PUT', url: '/v1/admin/packages', headers: bearer, payload: [entry] });
    assert.equal(res.statusCode, 200, res.body);
  };
  const ios = { OS: 'ios', DownloadURL: 'https://dl.example.com/a.ipa' };
  await put({ ...ios, version: '3.0.1', notes });
  assert.equal((await entryOf('ios', '?lang=en'))?.notes, 'Faster start');
  await put({ ...ios, version: '3.0.2', notes: '新的信息' });
  assert.deepEqual(
    [(await entryOf('ios', '?lang=zh-TW'))?.notes, (await entryOf('ios', '?lang=en'))?.notes_lang],
    ['新的資訊', 'zh-CN'],
  );
});

test('any text as notes, traditional or English, is stored and answered as written, or refused', async () => {
  const texts = fc.oneof(
    fc.string({ unit: 'binary', minLength: 1, maxLength: 60 }),
    fc.constantFrom('\u0000', '\u2028\u2029', '\ud83d', '\u{1F600}软件', ' '),
  );
  // The server refuses text with NUL or a lone surrogate, naming the field; blank is none.
  const loneSurrogate = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
  const fit = (text: string) => !text.includes('\u0000') && !loneSurrogate.test(text);
  const stored = (text: string) => (text.trim() === '' ? null : text);
  await fc.assert(
    fc.asyncProperty(texts, texts, texts, async (notes, tw, en) => {
      const payload = { os: 'mac', url: 'https://dl.example.com/p.dmg', notes, notes_tw: tw, notes_en: en };
      const res = await t.app.inject({ method: 'POST', url: '/v1/admin/releases', headers: bearer, payload });
      if (![notes, tw, en].every(fit)) {
        assert.equal(res.statusCode, 400, res.body);
        assert.match(res.json<{ field: string }>().field, /^notes(_tw|_en)?$/);
        return;
      }
      assert.equal(res.statusCode, 201, res.body);
      const release = checked(Release, res);
      assert.deepEqual([release.notes_tw_by_hand, release.notes_en], [stored(tw) !== null, stored(en)]);
      if (stored(tw) !== null) assert.equal(release.notes_tw, tw);
      const english = await entryOf('mac', '?lang=en');
      assert.equal(english?.notes, stored(en) ?? release.notes ?? undefined);
    }),
    { numRuns: 80 },
  );
});
