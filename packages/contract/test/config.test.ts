import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { readAppConfig, readEdgeUrl, readRegionDocument } from '../src/index.js';

const off = { useCdn: false, bucketUrl: '' };

describe('readAppConfig', () => {
  test('the canonical answer with the CDN off', () => {
    assert.deepEqual(readAppConfig({ use_cdn: 0, common_cdn_bucket_url: '' }), off);
  });

  test('the CDN on, trailing slashes trimmed', () => {
    assert.deepEqual(readAppConfig({ use_cdn: 1, common_cdn_bucket_url: 'https://cdn.example.com/b//' }), {
      useCdn: true,
      bucketUrl: 'https://cdn.example.com/b',
    });
  });

  test('camelCase fields, a true flag, inside an envelope', () => {
    assert.deepEqual(
      readAppConfig({ code: 0, data: { useCdn: true, commonCdnBucketUrl: 'https://cdn.example.com' } }),
      {
        useCdn: true,
        bucketUrl: 'https://cdn.example.com',
      },
    );
  });

  test('a "1" flag', () => {
    assert.equal(readAppConfig({ use_cdn: '1', common_cdn_bucket_url: 'https://c' }).useCdn, true);
  });

  test('the CDN off keeps the bucket', () => {
    assert.deepEqual(readAppConfig({ use_cdn: 0, common_cdn_bucket_url: 'https://c/' }), {
      useCdn: false,
      bucketUrl: 'https://c',
    });
  });

  test('the CDN on without a bucket is off', () => {
    assert.deepEqual(readAppConfig({ use_cdn: 1, common_cdn_bucket_url: '' }), off);
    assert.deepEqual(readAppConfig({ use_cdn: 1, common_cdn_bucket_url: '/' }), off);
    assert.deepEqual(readAppConfig({ use_cdn: 1 }), off);
  });

  test('missing, malformed or failed answers mean no CDN', () => {
    for (const body of [undefined, null, 'text', 5, [], {}, { code: 1, msg: 'x' }, { data: null }]) {
      assert.deepEqual(readAppConfig(body), off);
    }
  });
});

describe('readRegionDocument', () => {
  test('the canonical {addr} lists', () => {
    const doc = {
      api_addrs: [{ addr: 'https://a.example.com' }],
      allocator_addrs: [{ addr: 'https://r.example.com/v1/region' }],
    };
    assert.deepEqual(readRegionDocument(doc), {
      apiAddrs: ['https://a.example.com'],
      allocatorAddrs: ['https://r.example.com/v1/region'],
    });
  });

  test('camelCase keys with plain strings', () => {
    assert.deepEqual(
      readRegionDocument({ apiAddrs: ['https://a.example.com'], allocatorAddrs: ['http://r.example.com'] }),
      {
        apiAddrs: ['https://a.example.com'],
        allocatorAddrs: ['http://r.example.com'],
      },
    );
  });

  test('trimmed, trailing slashes removed, de-duplicated in order, non-http(s) dropped', () => {
    const api = [
      ' https://b.example.com/ ',
      { addr: 'https://a.example.com' },
      'https://b.example.com',
      'ftp://x.example.com',
      'a.example.com',
      '',
      { addr: 5 },
      null,
      'https://',
      'https://x y',
    ];
    assert.deepEqual(readRegionDocument({ api_addrs: api }).apiAddrs, [
      'https://b.example.com',
      'https://a.example.com',
    ]);
  });

  test('malformed documents give empty lists', () => {
    const empty = { apiAddrs: [], allocatorAddrs: [] };
    for (const body of [null, 'text', [], { api_addrs: 'https://a.example.com' }, { code: 1 }]) {
      assert.deepEqual(readRegionDocument(body), empty);
    }
  });
});

describe('readEdgeUrl', () => {
  test('{success: true, data: {url}}', () => {
    assert.equal(
      readEdgeUrl({ success: true, data: { url: 'https://e.example.com/app.apk' } }),
      'https://e.example.com/app.apk',
    );
  });

  test('no url unless success is true and the url is http(s)', () => {
    assert.equal(readEdgeUrl({ success: false, data: { url: 'https://e.example.com/a' } }), undefined);
    assert.equal(readEdgeUrl({ success: 'true', data: { url: 'https://e.example.com/a' } }), undefined);
    assert.equal(readEdgeUrl({ success: true, data: { url: 'javascript:alert(1)' } }), undefined);
    assert.equal(readEdgeUrl({ success: true, data: { url: '/a.apk' } }), undefined);
    assert.equal(readEdgeUrl({ success: true, data: null }), undefined);
    assert.equal(readEdgeUrl({ success: true, data: { url: 5 } }), undefined);
    assert.equal(readEdgeUrl(null), undefined);
  });
});
