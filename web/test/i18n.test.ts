import assert from 'node:assert/strict';
import { afterEach, before, describe, test } from 'node:test';
import {
  currentLanguage,
  defaultLanguage,
  languageFromUrl,
  languageOf,
  pickLanguage,
  setLanguage,
  t,
  type Language,
} from '../src/lib/i18n';
import { storageKeys } from '../src/lib/storage';

describe('languageOf', () => {
  const cases: [string | null | undefined, Language | null][] = [
    ['zh-CN', 'zh-CN'],
    ['zh', 'zh-CN'],
    ['ZH-Hans-SG', 'zh-CN'],
    ['zh-TW', 'zh-TW'],
    ['zh_tw', 'zh-TW'],
    ['zh-HK', 'zh-TW'],
    ['zh-MO', 'zh-TW'],
    ['zh-Hant', 'zh-TW'],
    ['en', 'en'],
    [' en-GB ', 'en'],
    ['fr-FR', null],
    ['english', null],
    ['', null],
    [null, null],
    [undefined, null],
  ];
  for (const [tag, expected] of cases) {
    test(`${JSON.stringify(tag)}: ${String(expected)}`, () => assert.equal(languageOf(tag), expected));
  }
});

describe('languageFromUrl', () => {
  const from = (href: string) => languageFromUrl(new URL(href));

  test('reads ?lang= in the query or in the hash, the hash winning', () => {
    assert.equal(from('https://site.test/?lang=en#/download'), 'en');
    assert.equal(from('https://site.test/#/download?lang=zh-TW'), 'zh-TW');
    assert.equal(from('https://site.test/?lang=en#/download?lang=zh-HK'), 'zh-TW');
  });

  test('a language the site does not speak, or none, is null', () => {
    assert.equal(from('https://site.test/#/download'), null);
    assert.equal(from('https://site.test/?lang=fr#/'), null);
    assert.equal(from('https://site.test/?lang=en#/?lang=fr'), 'en', 'an unknown hash value leaves the query');
  });
});

describe('pickLanguage', () => {
  test('the address first, then the stored choice, then the browser, then the default', () => {
    assert.equal(pickLanguage('en', 'zh-TW', ['zh-CN']), 'en');
    assert.equal(pickLanguage(null, 'zh-TW', ['en']), 'zh-TW');
    assert.equal(pickLanguage(null, null, ['fr', 'en-US', 'zh-TW']), 'en');
    assert.equal(pickLanguage(null, null, ['fr', 'de']), defaultLanguage);
  });

  test('a stored value the site does not know is skipped', () => {
    assert.equal(pickLanguage(null, 'klingon', ['zh-HK']), 'zh-TW');
  });
});

describe('t and setLanguage', () => {
  // Every catalog is loaded on demand, the default's too (src/main.tsx renders after initLanguage).
  before(() => setLanguage(defaultLanguage));
  afterEach(() => setLanguage(defaultLanguage));

  test('fills placeholders, and leaves one without a value as it is', () => {
    assert.equal(t('footer.copyright', { product: '星聊' }), '© 2024 星聊 版权所有');
    assert.equal(t('footer.copyright'), '© 2024 {product} 版权所有');
  });

  test('switches the catalog and the document, remembering the choice only when asked', async () => {
    await setLanguage('en');
    assert.equal(currentLanguage(), 'en');
    assert.equal(t('nav.download'), 'Download');
    assert.equal(document.documentElement.lang, 'en');
    assert.equal(document.title, '星聊 - Download and announcements', 'the product of the site config');
    assert.equal(localStorage.getItem(storageKeys.language), null);
    await setLanguage('zh-TW', { remember: true });
    assert.equal(t('nav.download'), '下載');
    assert.equal(localStorage.getItem(storageKeys.language), 'zh-TW');
  });

  test('a remembered choice is also a cookie for the server, kept a year', async () => {
    const doc = document as { cookie?: string };
    delete doc.cookie;
    await setLanguage('en');
    assert.equal(doc.cookie, undefined, 'not remembered unless asked');
    await setLanguage('en', { remember: true });
    assert.equal(doc.cookie, 'lang=en; Path=/; Max-Age=31536000; SameSite=Lax');
  });

  test('a slower catalog does not override a later choice', async () => {
    const slow = setLanguage('en');
    await setLanguage('zh-CN');
    await slow;
    assert.equal(currentLanguage(), 'zh-CN');
    assert.equal(t('nav.download'), '下载');
  });
});
