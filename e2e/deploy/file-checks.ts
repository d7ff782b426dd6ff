/**
 * The checks a hosted file sent by nginx must pass whichever store it comes from: the directory
 * (files-behind-nginx.test.ts) or S3 (files-s3-behind-nginx.test.ts). Each test adds what only its
 * store has: what reached S3, the internal location's name.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { call, resumeWithCurl, sha256, type Answer } from './support.js';

/** A request through nginx for the file, with these headers and method. */
export type ViaNginx = (headers?: Record<string, string>, method?: string) => Promise<Answer>;

/** Uploads `data` with the admin API; answers the public path it is served at (/v1/file/…). */
export async function uploadPackage(serverUrl: string, adminToken: string, data: Buffer): Promise<string> {
  const uploaded = await call(`${serverUrl}/v1/admin/files?name=${encodeURIComponent('星聊-7.0.0.apk')}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/octet-stream' },
    body: data,
  });
  assert.equal(uploaded.status, 201, uploaded.body.toString());
  return `/v1/${(JSON.parse(uploaded.body.toString()) as { path: string }).path}`;
}

/**
 * Each `bytes=…` range is a 206 with its bytes and the file's ETag (then `each` checks what the
 * store saw), and a range past the end is a 416; answers that 416.
 */
export async function checkRanges(
  viaNginx: ViaNginx,
  data: Buffer,
  cases: [range: string, start: number, end: number][],
  each: (range: string, start: number, end: number) => void = () => {},
): Promise<Answer> {
  const size = data.byteLength;
  for (const [range, start, end] of cases) {
    const answer = await viaNginx({ range });
    assert.equal(answer.status, 206, range);
    assert.equal(answer.headers['content-range'], `bytes ${start}-${end}/${size}`, range);
    assert.deepEqual(answer.body, data.subarray(start, end + 1), range);
    assert.equal(answer.headers.etag, `"${sha256(data)}"`, range);
    each(range, start, end);
  }
  const past = await viaNginx({ range: `bytes=${size}-` });
  assert.equal(past.status, 416);
  assert.equal(past.headers['content-range'], `bytes */${size}`);
  return past;
}

/** If-Range with the server's ETag or Last-Modified gets the range; another validator the whole
 * file (then `whole` checks the answer further). */
export async function checkIfRange(
  viaNginx: ViaNginx,
  data: Buffer,
  whole: (ifRange: string, answer: Answer, etag: string) => void = () => {},
): Promise<void> {
  const head = await viaNginx({}, 'HEAD');
  const etag = String(head.headers.etag);
  const lastModified = String(head.headers['last-modified']);
  for (const ifRange of [etag, lastModified]) {
    const same = await viaNginx({ range: 'bytes=0-9', 'if-range': ifRange });
    assert.equal(same.status, 206, ifRange);
    assert.deepEqual(same.body, data.subarray(0, 10), ifRange);
  }
  for (const ifRange of [`"${'0'.repeat(64)}"`, 'Thu, 01 Jan 2015 00:00:00 GMT']) {
    const other = await viaNginx({ range: 'bytes=0-9', 'if-range': ifRange });
    assert.equal(other.status, 200, ifRange);
    assert.equal(sha256(other.body), sha256(data), ifRange);
    whole(ifRange, other, etag);
  }
}

/** `curl -C -` resumes a half-downloaded file from nginx and ends with the file's SHA-256. */
export async function checkResume(url: string, dir: string, data: Buffer): Promise<void> {
  const target = join(dir, 'resume.apk');
  const stdout = await resumeWithCurl(url, target, data, 1_500_000);
  assert.equal(stdout, `206 ${data.byteLength - 1_500_000}`);
  assert.equal(sha256(readFileSync(target)), sha256(data));
}

/** Each spelling of the internal location is a 404 without the file; so is an unknown file. */
export async function checkInternalRefused(nginxUrl: string, spellings: string[], data: Buffer): Promise<void> {
  for (const spelling of spellings) {
    const answer = await call(`${nginxUrl}${spelling}`);
    assert.equal(answer.status, 404, spelling);
    assert.notEqual(sha256(answer.body), sha256(data), spelling);
  }
  const unknown = await call(`${nginxUrl}/v1/file/preview/${'0'.repeat(16)}-none.apk`);
  assert.equal(unknown.status, 404);
  assert.equal((JSON.parse(unknown.body.toString()) as { status: number }).status, 404);
}
