/**
 * Answers compressed per request and request bodies decompressed (plugins/compression.ts): what
 * the read cache does not hold goes out in brotli or gzip as the client asks, and a body sent
 * with a Content-Encoding reads as if sent plain.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { brotliCompressSync, brotliDecompressSync, deflateSync, gunzipSync, gzipSync } from 'node:zlib';
import { bearer, startTestApp, type TestApp } from './helpers.js';

let t: TestApp;
let consoleRoot: string;
// Over the 1 KB threshold, and text: a console asset as the build leaves it, uncompressed.
const script = `export const words = ${JSON.stringify(Array.from({ length: 400 }, (_, i) => `word ${i}`))};\n`;
before(async () => {
  consoleRoot = mkdtempSync(join(tmpdir(), 'chat-site-compression-'));
  mkdirSync(join(consoleRoot, 'assets'));
  writeFileSync(join(consoleRoot, 'index.html'), '<!doctype html><title>console</title>');
  writeFileSync(join(consoleRoot, 'preview.html'), '<!doctype html><title>preview</title>');
  writeFileSync(join(consoleRoot, 'assets', 'console-big.js'), script);
  writeFileSync(join(consoleRoot, 'assets', 'console-small.js'), 'export {};\n');
  t = await startTestApp({ demo: true, env: { CONSOLE_ROOT: consoleRoot } });
});
after(async () => {
  await t.close();
  rmSync(consoleRoot, { recursive: true, force: true });
});

const decode = (encoding: unknown, body: Buffer): string => {
  if (encoding === 'br') return brotliDecompressSync(body).toString();
  if (encoding === 'gzip') return gunzipSync(body).toString();
  assert.equal(encoding, undefined);
  return body.toString();
};

describe('answers made per request', () => {
  // The admin API's list is not in the read cache: it is compressed as it goes out.
  const list = (headers: Record<string, string> = {}, method: 'GET' | 'HEAD' = 'GET') =>
    t.app.inject({ method, url: '/v1/admin/bulletins?page_size=50', headers: { ...bearer, ...headers } });

  test('go out in brotli or gzip, as asked, and decode to the same JSON', async () => {
    const plain = await list();
    assert.equal(plain.statusCode, 200);
    assert.ok(plain.rawPayload.length > 1024, 'the list is over the threshold');
    assert.equal(plain.headers['content-encoding'], undefined);
    assert.match(String(plain.headers.vary), /accept-encoding/i);
    for (const [asked, chosen] of [
      ['br', 'br'],
      ['gzip', 'gzip'],
      ['gzip, deflate, br', 'br'],
      ['br;q=0, gzip', 'gzip'],
    ] as const) {
      const res = await list({ 'accept-encoding': asked });
      assert.equal(res.headers['content-encoding'], chosen, asked);
      assert.match(String(res.headers.vary), /accept-encoding/i);
      assert.ok(res.rawPayload.length < plain.rawPayload.length / 2, `${asked}: ${res.rawPayload.length} bytes`);
      assert.deepEqual(JSON.parse(decode(chosen, res.rawPayload)), plain.json(), asked);
    }
  });

  test('go out as they are when the client takes neither, asks not to, or asks for headers only', async () => {
    const refusals: Record<string, string>[] = [
      { 'accept-encoding': 'identity' },
      { 'accept-encoding': 'deflate' },
      { 'accept-encoding': 'br;q=0, gzip;q=0' },
      { 'accept-encoding': 'br', 'x-no-compression': '1' },
    ];
    for (const headers of refusals) {
      const res = await list(headers);
      assert.equal(res.statusCode, 200);
      assert.equal(res.headers['content-encoding'], undefined, JSON.stringify(headers));
      assert.ok(Array.isArray(res.json<{ list: unknown[] }>().list));
    }
    const head = await list({ 'accept-encoding': 'br' }, 'HEAD');
    assert.equal(head.statusCode, 200);
    assert.equal(head.headers['content-encoding'], undefined);
  });

  test('small answers and pictures are never compressed', async () => {
    const ping = await t.app.inject({ url: '/v1/ping', headers: { 'accept-encoding': 'br' } });
    assert.equal(ping.headers['content-encoding'], undefined);
    const small = await t.app.inject({ url: '/admin/assets/console-small.js', headers: { 'accept-encoding': 'br' } });
    assert.equal(small.statusCode, 200);
    assert.equal(small.headers['content-encoding'], undefined);
    assert.equal(small.body, 'export {};\n');
    const page = (await t.app.inject({ url: '/v1/bulletin/page' })).json<{ list: { content: string }[] }>();
    const picture = page.list.map((item) => /file\/preview\/[\w.-]+/.exec(item.content)?.[0]).find(Boolean);
    assert.ok(picture !== undefined, 'the demo content has a picture');
    const image = await t.app.inject({ url: `/v1/${picture}`, headers: { 'accept-encoding': 'br, gzip' } });
    assert.equal(image.statusCode, 200);
    assert.equal(image.headers['content-encoding'], undefined);
  });

  test('a file streamed from disk is compressed on the way, its length dropped', async () => {
    for (const encoding of ['br', 'gzip']) {
      const res = await t.app.inject({ url: '/admin/assets/console-big.js', headers: { 'accept-encoding': encoding } });
      assert.equal(res.statusCode, 200);
      assert.equal(res.headers['content-encoding'], encoding);
      assert.notEqual(Number(res.headers['content-length'] ?? res.rawPayload.length), script.length);
      assert.equal(decode(encoding, res.rawPayload), script);
    }
    // A range counts bytes of the file as it is on disk.
    const part = await t.app.inject({
      url: '/admin/assets/console-big.js',
      headers: { 'accept-encoding': 'br', range: 'bytes=0-1499' },
    });
    assert.equal(part.statusCode, 206);
    assert.equal(part.headers['content-encoding'], undefined);
    assert.equal(part.body, script.slice(0, 1500));
  });
});

describe('request bodies sent with a Content-Encoding', () => {
  const bulletin = JSON.stringify({ title: '压缩发来的公告', content: `<p>${'正文'.repeat(400)}</p>`, topup: 0 });
  const post = (encoding: string, payload: Buffer) =>
    t.app.inject({
      method: 'POST',
      url: '/v1/admin/bulletins',
      headers: { ...bearer, 'content-type': 'application/json', 'content-encoding': encoding },
      payload,
    });

  test('read as if sent plain, in brotli, gzip or deflate', async () => {
    const body = Buffer.from(bulletin);
    for (const [encoding, packed] of [
      ['br', brotliCompressSync(body)],
      ['gzip', gzipSync(body)],
      ['deflate', deflateSync(body)],
      ['identity', body],
    ] as const) {
      const res = await post(encoding, packed);
      assert.equal(res.statusCode, 201, `${encoding}: ${res.body}`);
      const id = res.json<{ id: number }>().id;
      const stored = await t.app.inject({ url: `/v1/bulletin/detail?id=${id}` });
      assert.equal(stored.json<{ Title: string }>().Title, '压缩发来的公告', encoding);
    }
  });

  test('an encoding the server cannot read is a 415; a body that decodes past the limit a 413; bytes that do not decode a 400', async () => {
    const unknown = await post('zstd', Buffer.from(bulletin));
    assert.equal(unknown.statusCode, 415);
    assert.equal(unknown.json<{ status: number; code: string }>().code, 'unsupported_type');
    // The body limit counts the bytes as they decompress: 2 KB of gzip that grow past 1 MB.
    const bomb = gzipSync(JSON.stringify({ title: 'x', content: `<p>${'a'.repeat(2 * 1024 * 1024)}</p>`, topup: 0 }));
    assert.ok(bomb.length < 8 * 1024);
    const tooLarge = await post('gzip', bomb);
    assert.equal(tooLarge.statusCode, 413);
    assert.equal(tooLarge.json<{ code: string }>().code, 'too_large');
    const broken = await post('gzip', Buffer.from(bulletin));
    assert.equal(broken.statusCode, 400);
    assert.match(broken.json<{ msg: string }>().msg, /does not decompress as its content-encoding gzip says/);
  });
});
