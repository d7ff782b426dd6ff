import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { acceptedLanguages, cookieLanguage, languageOf, pageFileName, pickLanguage } from '../src/index.js';

describe('acceptedLanguages', () => {
  test('orders the tags by q-value, equal ones as the header lists them', () => {
    assert.deepEqual(acceptedLanguages('fr;q=0.9, en-US;q=0.8, zh-TW, de;q=0.8'), ['zh-TW', 'fr', 'en-US', 'de']);
    assert.deepEqual(acceptedLanguages('zh-CN,zh;q=0.9,en;q=0.8'), ['zh-CN', 'zh', 'en']);
  });

  test('leaves out q=0, `*` and empty parts; a malformed q counts as 1', () => {
    assert.deepEqual(acceptedLanguages('en;q=0, *;q=0.5, , zh-HK;q=0.1'), ['zh-HK']);
    assert.deepEqual(acceptedLanguages('en;q=x, fr;q=0.5'), ['en', 'fr']);
    assert.deepEqual(acceptedLanguages('en; Q = 0.3 , zh-TW;q=0.4'), ['zh-TW', 'en']);
    assert.deepEqual(acceptedLanguages(undefined), []);
    assert.deepEqual(acceptedLanguages(''), []);
  });

  test('through the site’s rule: the best supported language wins, not the first listed', () => {
    const pick = (header: string) => pickLanguage(null, null, acceptedLanguages(header));
    assert.equal(pick('fr-FR, en;q=0.5, zh-TW;q=0.7'), 'zh-TW');
    assert.equal(pick('zh-Hant-HK;q=0.2, en-GB;q=0.3'), 'en');
    assert.equal(pick('fr, de;q=0.5'), 'zh-CN');
    assert.equal(pick('en;q=0, zh'), 'zh-CN');
  });
});

describe('cookieLanguage', () => {
  test('reads the lang cookie among others, and nothing else', () => {
    assert.equal(cookieLanguage('a=1; lang=zh-TW; b=2'), 'zh-TW');
    assert.equal(cookieLanguage('lang=en'), 'en');
    assert.equal(cookieLanguage('xlang=en; langs=fr'), null);
    assert.equal(cookieLanguage(undefined), null);
    assert.equal(languageOf(cookieLanguage('lang=klingon')), null);
  });
});

describe('pageFileName', () => {
  test('the default language is index.html, the others beside it', () => {
    assert.deepEqual((['zh-CN', 'zh-TW', 'en'] as const).map(pageFileName), [
      'index.html',
      'index.zh-TW.html',
      'index.en.html',
    ]);
  });
});
