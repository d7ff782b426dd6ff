/**
 * The directory store's download stream (storage/file-body.ts) over real sockets: piped into an
 * HTTP answer it reuses two buffers, so a slow reader must still get every byte as it is (a
 * buffer reused before the socket took it would show as a wrong SHA-256), a reader that leaves
 * must free the file, and a file shorter than promised must cut the answer, not hang it. Read as
 * a plain stream (backups, moving to S3) it gives the same bytes.
 */
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { createServer, get, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream';
import { after, before, describe, test } from 'node:test';
import { chunkBytes, FileBody } from '../src/storage/file-body.js';

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');
// Many chunks and a piece: every buffer is used many times, and more than the kernel's socket
// buffers hold on loopback.
const data = randomBytes(40 * chunkBytes + 12_345);

let dir: string;
let server: Server;
let base: string;
/** The server's last answer and what it was sent from, to see it closed. */
let last: { handle: FileHandle; body: FileBody; closed: Promise<void>; response: ServerResponse } | undefined;

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'chat-site-file-body-'));
  writeFileSync(join(dir, 'whole'), data);
  writeFileSync(join(dir, 'short'), data.subarray(0, chunkBytes + 10));
  server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://x');
    const start = Number(url.searchParams.get('start') ?? 0);
    const end = Number(url.searchParams.get('end') ?? data.byteLength - 1);
    void open(join(dir, url.pathname.slice(1)), 'r').then((handle) => {
      const body = new FileBody(handle, start, end);
      last = { handle, body, closed: new Promise((done) => body.once('close', done)), response };
      response.writeHead(200, { 'content-length': String(end - start + 1) });
      // As Fastify does: a stream that fails once the headers are out cuts the answer, and an
      // answer its reader leaves destroys the stream.
      pipeline(body, response, () => undefined);
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
after(async () => {
  await new Promise((done) => server.close(done));
  rmSync(dir, { recursive: true, force: true });
});

/** Whether the server has written bytes the kernel has not taken yet (its socket is full), or
 * has nothing left to write. */
const serverWaiting = () =>
  (last?.response.socket?.writableLength ?? 0) > 0 || last?.response.writableFinished === true;

/** Reads the answer, stopping `pauses` times until the server's socket is full (a buffer reused
 * too early is then overwritten while it waits); answers the bytes and whether the answer
 * ended complete. */
function fetchSlowly(path: string, pauses: number): Promise<{ body: Buffer; complete: boolean }> {
  return new Promise((done, fail) => {
    get(`${base}${path}`, (response: IncomingMessage) => {
      const chunks: Buffer[] = [];
      let paused = 0;
      const resumeWhenFull = () => {
        if (serverWaiting()) response.resume();
        else setImmediate(resumeWhenFull);
      };
      response.on('data', (chunk: Buffer) => {
        chunks.push(chunk);
        if (paused++ < pauses) {
          response.pause();
          setImmediate(resumeWhenFull);
        }
      });
      response.on('end', () => done({ body: Buffer.concat(chunks), complete: response.complete }));
      response.on('error', () => done({ body: Buffer.concat(chunks), complete: false }));
      response.on('aborted', () => done({ body: Buffer.concat(chunks), complete: false }));
    }).on('error', fail);
  });
}

describe('FileBody', () => {
  test('piped into an answer read slowly, every byte arrives as it is, and the file is closed', async () => {
    const { body, complete } = await fetchSlowly('/whole', 200);
    assert.ok(complete);
    assert.equal(sha256(body), sha256(data));
    await last?.closed;
    assert.equal(last?.handle.fd, -1);
  });

  test('a range, piped: exactly its bytes', async () => {
    const start = chunkBytes - 5;
    const end = 3 * chunkBytes + 7;
    const { body } = await fetchSlowly(`/whole?start=${start}&end=${end}`, 20);
    assert.deepEqual(body, data.subarray(start, end + 1));
  });

  test('a reader that leaves half way frees the file', async () => {
    await new Promise<void>((done, fail) => {
      const request = get(`${base}/whole`, (response) => {
        response.once('data', () => {
          request.destroy();
          done();
        });
      });
      request.on('error', (error) => (request.destroyed ? undefined : fail(error)));
    });
    await last?.closed;
    assert.equal(last?.handle.fd, -1);
  });

  test('a file shorter than its stored size cuts the answer instead of hanging', async () => {
    const { body, complete } = await fetchSlowly(`/short?end=${data.byteLength - 1}`, 0);
    assert.equal(complete, false);
    assert.ok(body.byteLength <= chunkBytes + 10);
    await last?.closed;
    assert.equal(last?.handle.fd, -1);
  });

  test('read as a plain stream it gives the same bytes, whole or a range', async () => {
    const read = async (start: number, end: number) => {
      const body = new FileBody(await open(join(dir, 'whole'), 'r'), start, end);
      const chunks: Buffer[] = [];
      for await (const chunk of body) chunks.push(chunk as Buffer);
      return Buffer.concat(chunks);
    };
    assert.equal(sha256(await read(0, data.byteLength - 1)), sha256(data));
    assert.deepEqual(await read(100, 2 * chunkBytes), data.subarray(100, 2 * chunkBytes + 1));
  });
});
