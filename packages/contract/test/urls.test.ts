import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { cdnUrl, resolveDownloadUrl, resolveImageSrc, type CdnSettings } from '../src/index.js';

const cdn: CdnSettings = { useCdn: true, bucketUrl: 'https://cdn.example.com/bucket' };
const noCdn: CdnSettings = { useCdn: false, bucketUrl: 'https://cdn.example.com/bucket' };
const api = 'https://api.example.com';

describe('cdnUrl', () => {
  test('a relative file/preview path', () => {
    assert.equal(cdnUrl('file/preview/2024/a.png', cdn), 'https://cdn.example.com/bucket/2024/a.png');
  });

  test('an absolute file/preview URL', () => {
    assert.equal(cdnUrl('https://api.example.com/v1/file/preview/a.png', cdn), 'https://cdn.example.com/bucket/a.png');
    assert.equal(cdnUrl('/v1/file/preview/a.png', cdn), 'https://cdn.example.com/bucket/a.png');
  });

  test('the query string is kept for other files', () => {
    assert.equal(cdnUrl('file/preview/a.png?w=200#x', cdn), 'https://cdn.example.com/bucket/a.png?w=200#x');
  });

  test('svg and ico drop the query string and hash, case-insensitively', () => {
    assert.equal(cdnUrl('file/preview/logo.svg?v=3', cdn), 'https://cdn.example.com/bucket/logo.svg');
    assert.equal(cdnUrl('file/preview/favicon.ICO?v=3#h', cdn), 'https://cdn.example.com/bucket/favicon.ICO');
    assert.equal(cdnUrl('file/preview/logo.svg', cdn), 'https://cdn.example.com/bucket/logo.svg');
  });

  test('non-matching URLs are not rewritten', () => {
    assert.equal(cdnUrl('https://img.example.com/a.png', cdn), undefined);
    assert.equal(cdnUrl('myfile/preview/a.png', cdn), undefined);
    assert.equal(cdnUrl('file/preview/', cdn), undefined);
  });

  test('the CDN off, or on without a bucket, rewrites nothing', () => {
    assert.equal(cdnUrl('file/preview/a.png', noCdn), undefined);
    assert.equal(cdnUrl('file/preview/a.png', { useCdn: true, bucketUrl: '' }), undefined);
  });

  test('a bucket with a trailing slash gives one slash', () => {
    assert.equal(
      cdnUrl('file/preview/a.png', { useCdn: true, bucketUrl: 'https://c.example.com/' }),
      'https://c.example.com/a.png',
    );
  });
});

describe('resolveImageSrc', () => {
  test('the CDN rewrite comes first, for relative and absolute src', () => {
    assert.equal(resolveImageSrc('file/preview/a.png', { apiAddr: api, cdn }), 'https://cdn.example.com/bucket/a.png');
    assert.equal(
      resolveImageSrc(`${api}/v1/file/preview/a.png`, { apiAddr: api, cdn }),
      'https://cdn.example.com/bucket/a.png',
    );
  });

  test('with the CDN off a relative path resolves against {api}/v1/', () => {
    assert.equal(resolveImageSrc('file/preview/a.png', { apiAddr: api, cdn: noCdn }), `${api}/v1/file/preview/a.png`);
  });

  test('an api address with trailing slashes still gives one slash', () => {
    assert.equal(
      resolveImageSrc('file/preview/a.png', { apiAddr: `${api}//`, cdn: noCdn }),
      `${api}/v1/file/preview/a.png`,
    );
  });

  test('a root-relative path resolves against the api origin, dropping its path', () => {
    assert.equal(
      resolveImageSrc('/img/a.png', { apiAddr: 'https://api.example.com/chat', cdn: noCdn }),
      `${api}/img/a.png`,
    );
    assert.equal(
      resolveImageSrc('/img/a.png', { apiAddr: 'http://10.0.0.1:8080', cdn: noCdn }),
      'http://10.0.0.1:8080/img/a.png',
    );
  });

  test('absolute, protocol-relative and data: URLs are kept', () => {
    for (const src of [
      'https://img.example.com/a.png',
      'HTTP://img.example.com/a.png',
      '//img.example.com/a.png',
      'data:image/png;base64,AAAA',
    ]) {
      assert.equal(resolveImageSrc(src, { apiAddr: api, cdn }), src);
    }
  });

  test('without an api address non-CDN paths are kept as is', () => {
    assert.equal(resolveImageSrc('file/preview/a.png', { apiAddr: null, cdn: noCdn }), 'file/preview/a.png');
    assert.equal(resolveImageSrc('/img/a.png', { apiAddr: null, cdn: noCdn }), '/img/a.png');
    assert.equal(resolveImageSrc('file/preview/a.png', { apiAddr: null, cdn }), 'https://cdn.example.com/bucket/a.png');
  });

  test('an empty src stays empty', () => {
    assert.equal(resolveImageSrc('', { apiAddr: api, cdn: noCdn }), '');
  });
});

describe('resolveDownloadUrl', () => {
  test('the CDN rewrite comes first', () => {
    assert.equal(
      resolveDownloadUrl('file/preview/app.apk', { base: 'https://dl.example.com', cdn }),
      'https://cdn.example.com/bucket/app.apk',
    );
  });

  test('http(s) URLs are used as is', () => {
    assert.equal(
      resolveDownloadUrl('https://x.example.com/app.apk', { base: 'https://dl.example.com', cdn: noCdn }),
      'https://x.example.com/app.apk',
    );
    assert.equal(
      resolveDownloadUrl('http://x.example.com/app.apk', { base: 'https://dl.example.com', cdn }),
      'http://x.example.com/app.apk',
    );
  });

  test('a relative URL is prefixed with the base, with exactly one slash', () => {
    const expected = 'https://dl.example.com/apps/app.apk';
    assert.equal(resolveDownloadUrl('apps/app.apk', { base: 'https://dl.example.com', cdn: noCdn }), expected);
    assert.equal(resolveDownloadUrl('apps/app.apk', { base: 'https://dl.example.com/', cdn: noCdn }), expected);
    assert.equal(resolveDownloadUrl('/apps/app.apk', { base: 'https://dl.example.com', cdn: noCdn }), expected);
    assert.equal(resolveDownloadUrl('//apps/app.apk', { base: 'https://dl.example.com//', cdn: noCdn }), expected);
  });

  test('the CDN off leaves file/preview paths to the base', () => {
    assert.equal(
      resolveDownloadUrl('file/preview/app.apk', { base: 'https://dl.example.com', cdn: noCdn }),
      'https://dl.example.com/file/preview/app.apk',
    );
  });
});
