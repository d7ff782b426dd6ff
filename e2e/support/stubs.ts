/**
 * Small loopback servers the browser tests point the site at: region documents, a fake API with
 * answers chosen per test, an address that accepts connections and never answers, and dead
 * addresses. Every stub answers on 127.0.0.1 only; every one must be closed by its test file.
 */
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { createServer as createNetServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { freePorts } from '../../testing/free-port.js';
import { repoRoot } from '../../testing/repo-root.js';

export interface Stub {
  /** http://127.0.0.1:<port> (https://<host>:<port> for an HTTPS stub), no trailing slash. */
  url: string;
  port: number;
  close(): Promise<void>;
}

function listen(server: Server): Promise<number> {
  return new Promise((done, fail) => {
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => done((server.address() as AddressInfo).port));
  });
}

function closeServer(server: Server, sockets: Set<Socket>): Promise<void> {
  for (const socket of sockets) socket.destroy();
  return new Promise((done) => server.close(() => done()));
}

function trackSockets(server: Server): Set<Socket> {
  const sockets = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  return sockets;
}

export { freePorts };

export const loopback = (port: number) => `http://127.0.0.1:${port}`;

/** Addresses on which nothing listens: connections are refused at once. */
export async function deadAddresses<const K extends string>(names: readonly K[]): Promise<Record<K, string>> {
  const ports = await freePorts(names);
  return Object.fromEntries(names.map((name) => [name, loopback(ports[name])])) as Record<K, string>;
}

/** An address that accepts TCP connections and never answers a byte. */
export async function startHangingStub(): Promise<Stub & { connections(): number }> {
  let connections = 0;
  const server = createNetServer(() => {
    connections += 1; // keep the socket open, read nothing, answer nothing
  });
  const sockets = trackSockets(server);
  const port = await listen(server);
  return { url: loopback(port), port, connections: () => connections, close: () => closeServer(server, sockets) };
}

export interface Answer {
  status: number;
  /** Sent as JSON unless it is a string. */
  body?: unknown;
  contentType?: string;
}

export interface RecordedRequest {
  method: string;
  /** Path without the query string. */
  path: string;
  url: string;
  headers: IncomingMessage['headers'];
}

export type Routes = Record<string, Answer | ((request: RecordedRequest) => Answer)>;

export interface HttpStub extends Stub {
  /** Every request received, preflights included, oldest first. */
  requests: RecordedRequest[];
  /** Replaces some answers (keyed by path without the query string, e.g. `/v1/ping`). */
  set(routes: Routes): void;
  /** Back to the answers it started with, and an empty request log. */
  reset(): void;
}

const corsHeaders = { 'access-control-allow-origin': '*' };

/** Serves the stub over HTTPS with this key and certificate (e.g. from ./tls.ts), and names it by
 * `host` (a name the browser maps to 127.0.0.1) in its `url`. */
export interface StubTls {
  key: string;
  cert: string;
  host: string;
}

/**
 * A JSON server for chosen paths, readable from the site's origin: every answer carries
 * `access-control-allow-origin: *` and OPTIONS preflights allow GET with the `os` header.
 * Unknown paths answer 404 {"status":404,"msg":"not found"}. Plain HTTP unless `tls` is given.
 */
export async function startHttpStub(initial: Routes, tls?: StubTls): Promise<HttpStub> {
  let routes: Routes = { ...initial };
  const requests: RecordedRequest[] = [];
  const handler = (request: IncomingMessage, response: ServerResponse) => {
    const url = request.url ?? '/';
    const path = url.split('?')[0] ?? '/';
    const recorded: RecordedRequest = { method: request.method ?? 'GET', path, url, headers: request.headers };
    requests.push(recorded);
    if (request.method === 'OPTIONS') {
      response.writeHead(204, {
        ...corsHeaders,
        'access-control-allow-methods': 'GET, HEAD, OPTIONS',
        'access-control-allow-headers': request.headers['access-control-request-headers'] ?? 'os',
        'access-control-max-age': '0',
      });
      response.end();
      return;
    }
    const route = routes[path];
    const answer: Answer =
      route === undefined
        ? { status: 404, body: { status: 404, msg: 'not found' } }
        : typeof route === 'function'
          ? route(recorded)
          : route;
    const text =
      answer.body === undefined ? '' : typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body);
    response.writeHead(answer.status, {
      ...corsHeaders,
      'cache-control': 'no-store',
      ...(answer.status === 204 || answer.status === 304
        ? {}
        : { 'content-type': answer.contentType ?? 'application/json; charset=utf-8' }),
    });
    response.end(answer.status === 204 || answer.status === 304 ? undefined : text);
  };
  const server =
    tls === undefined ? createHttpServer(handler) : createHttpsServer({ key: tls.key, cert: tls.cert }, handler);
  const sockets = trackSockets(server);
  const port = await listen(server);
  return {
    url: tls === undefined ? loopback(port) : `https://${tls.host}:${port}`,
    port,
    requests,
    set: (more) => {
      routes = { ...routes, ...more };
    },
    reset: () => {
      routes = { ...initial };
      requests.length = 0;
    },
    close: () => closeServer(server, sockets),
  };
}

/** Where the region-document stubs answer. */
export const regionDocumentPath = '/region.json';

/** Canonical answers of a small, well-behaved API (docs/public-api.md#the-public-api), distinct
 * from the demo content so a test can tell which server answered. */
export const fakeBulletins = [
  { id: 1, title: '假接口置顶公告', content: '<p>置顶正文</p>', topup: 1, created_at: '2024-05-01 10:00:00' },
  { id: 2, title: '假接口普通公告', content: '<p>普通正文</p>', topup: 0, created_at: '2024-04-02 09:30:00' },
  { id: 3, title: '假接口图片公告', content: '<p>图片</p>', topup: 0, created_at: '2024-03-03 08:00:00' },
] as const;

export const fakeImageKey = 'abc123-picture.png';

export function fakeApiRoutes(): Routes {
  return {
    '/v1/ping': { status: 200, body: { status: 200 } },
    '/v1/common/appconfig': { status: 200, body: { use_cdn: 0, common_cdn_bucket_url: '' } },
    '/v1/common/getInstallPackageAddrs': {
      status: 200,
      body: [
        { OS: 'android', DownloadURL: 'https://dl.example.com/app.apk' },
        { OS: 'ios', DownloadURL: 'https://dl.example.com/app.ipa' },
        { OS: 'windows', DownloadURL: 'https://dl.example.com/app.exe' },
        { OS: 'mac', DownloadURL: 'https://dl.example.com/app.dmg' },
      ],
    },
    '/v1/bulletin/page': { status: 200, body: { count: fakeBulletins.length, list: fakeBulletins } },
    '/v1/bulletin/detail': (request) => {
      const id = Number(new URL(request.url, 'http://stub').searchParams.get('id'));
      const item = fakeBulletins.find((bulletin) => bulletin.id === id);
      if (item === undefined) return { status: 404, body: { status: 404, msg: 'bulletin not found' } };
      const content = id === 3 ? `<p>图片</p><p><img src="file/preview/${fakeImageKey}" alt="图"></p>` : item.content;
      return { status: 200, body: { Id: item.id, Title: item.title, Content: content, CreatedAt: item.created_at } };
    },
    [`/v1/file/preview/${fakeImageKey}`]: {
      status: 200,
      contentType: 'image/svg+xml',
      body: '<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4"/>',
    },
  };
}

export const startFakeApi = () => startHttpStub(fakeApiRoutes());

/** A copy of site.config.json with some settings replaced, written to a temp file for
 * `SITE_CONFIG`. `remove()` deletes it. */
export function writeSiteConfig(overrides: Record<string, unknown>): { path: string; remove(): void } {
  const base = JSON.parse(readFileSync(join(repoRoot, 'site.config.json'), 'utf8')) as Record<string, unknown>;
  const dir = mkdtempSync(join(tmpdir(), 'chat-site-config-'));
  const path = join(dir, 'site.config.json');
  writeFileSync(path, JSON.stringify({ ...base, ...overrides }, null, 2));
  return { path, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** What a page did that a test may want to assert on: uncaught errors and the site's logged
 * failures (`[site] …` console warnings). */
export interface PageWatch {
  pageErrors: Error[];
  siteWarnings: string[];
  /** Resolves once a `[site] <what>` warning was logged (at once if it already was). */
  warned(what: string, timeoutMs?: number): Promise<void>;
}

export function watchPage(page: Page): PageWatch {
  const pageErrors: Error[] = [];
  const siteWarnings: string[] = [];
  const waiters: { what: string; done: () => void }[] = [];
  page.on('pageerror', (error) => pageErrors.push(error));
  page.on('console', (message) => {
    const text = message.text();
    if (!text.startsWith('[site] ')) return;
    siteWarnings.push(text);
    for (const waiter of waiters.filter((w) => text.startsWith(`[site] ${w.what}:`))) waiter.done();
  });
  return {
    pageErrors,
    siteWarnings,
    warned: (what, timeoutMs = 10_000) =>
      new Promise<void>((done, fail) => {
        if (siteWarnings.some((text) => text.startsWith(`[site] ${what}:`))) return done();
        const timer = setTimeout(
          () =>
            fail(new Error(`no "[site] ${what}:" warning within ${timeoutMs} ms; got ${JSON.stringify(siteWarnings)}`)),
          timeoutMs,
        );
        timer.unref(); // a wait nobody needs any more must not hold the test process open
        waiters.push({
          what,
          done: () => {
            clearTimeout(timer);
            done();
          },
        });
      }),
  };
}

/**
 * Asserts helper: the element is painted in the theme's --danger colour and not in the normal
 * text colour. Answers both colours so the caller can assert with a clear message.
 */
export async function colours(
  page: Page,
  selector: string,
): Promise<{ element: string; danger: string; text: string }> {
  return page
    .locator(selector)
    .first()
    .evaluate((element) => {
      const probe = document.createElement('span');
      probe.style.color = 'var(--danger)';
      element.parentElement?.appendChild(probe);
      const danger = getComputedStyle(probe).color;
      probe.remove();
      return { element: getComputedStyle(element).color, danger, text: getComputedStyle(document.body).color };
    });
}
