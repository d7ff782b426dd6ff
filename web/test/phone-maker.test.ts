import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { androidStores } from '@chat-site/contract';
import { phoneMakerStore, storesFor } from '../src/lib/phone-maker';

// As the phones' own browsers (and Chrome on them) send them.
const phones: [string, string, string | undefined][] = [
  [
    'Huawei, HarmonyOS 4',
    'Mozilla/5.0 (Linux; Android 12; HarmonyOS; ALN-AL00; HMSCore 6.13.0.302) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/99.0.4844.88 HuaweiBrowser/14.0.5.302 Mobile Safari/537.36',
    'appgallery',
  ],
  [
    'HONOR',
    'Mozilla/5.0 (Linux; Android 13; HONOR PGT-AN10 Build/HONORPGT-AN10; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/110.0.5481.153 Mobile Safari/537.36',
    'honor',
  ],
  [
    'Xiaomi, its own browser',
    'Mozilla/5.0 (Linux; U; Android 13; zh-cn; 23049RAD8C Build/TKQ1.221114.001) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/100.0.4896.127 Mobile Safari/537.36 XiaoMi/MiuiBrowser/17.8.70923',
    'xiaomi',
  ],
  [
    'Xiaomi, Chrome (the model only)',
    'Mozilla/5.0 (Linux; Android 12; M2012K11AC) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36',
    'xiaomi',
  ],
  [
    'Redmi',
    'Mozilla/5.0 (Linux; Android 11; Redmi Note 8 Pro) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36',
    'xiaomi',
  ],
  [
    'OPPO, its own browser',
    'Mozilla/5.0 (Linux; U; Android 13; zh-CN; PHB110 Build/TP1A.220905.001) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/100.0.4896.58 Mobile Safari/537.36 HeyTapBrowser/40.8.40.1',
    'oppo',
  ],
  [
    'realme, Chrome',
    'Mozilla/5.0 (Linux; Android 13; RMX3700) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36',
    'oppo',
  ],
  [
    'OnePlus, Chrome',
    'Mozilla/5.0 (Linux; Android 14; CPH2449) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36',
    'oppo',
  ],
  [
    'vivo, its own browser',
    'Mozilla/5.0 (Linux; Android 13; V2227A Build/TP1A.220624.014; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/87.0.4280.141 Mobile Safari/537.36 VivoBrowser/13.6.11.0',
    'vivo',
  ],
  [
    'iQOO',
    'Mozilla/5.0 (Linux; Android 13; iQOO Neo7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36',
    'vivo',
  ],
  [
    'Pixel: no maker store',
    'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36',
    undefined,
  ],
  [
    'Samsung: no maker store',
    'Mozilla/5.0 (Linux; Android 14; SM-S9210) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/25.0 Chrome/121.0.0.0 Mobile Safari/537.36',
    undefined,
  ],
];

describe('phoneMakerStore', () => {
  for (const [name, userAgent, store] of phones) {
    test(`${name}: ${String(store)}`, () => assert.equal(phoneMakerStore(userAgent), store));
  }
});

describe('storesFor', () => {
  test('the maker’s store first, the others in their listing order', () => {
    const [, vivo] = phones.find(([name]) => name.startsWith('vivo')) ?? [];
    assert.deepEqual(storesFor(vivo ?? ''), ['vivo', ...androidStores.filter((store) => store !== 'vivo')]);
  });

  test('an unknown maker: the listing order', () => assert.deepEqual(storesFor('curl/8.0'), [...androidStores]));
});
