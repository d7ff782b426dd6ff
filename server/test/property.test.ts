/**
 * Property-based tests of every public and admin endpoint: random and malicious query strings,
 * ids, headers and bodies. Whatever arrives, the server answers below 500; every error is a JSON
 * {status, msg} whose status is the HTTP status; a refused request changes no data; the server
 * keeps serving; and nothing pollutes Object.prototype. Admin requests without the token are
 * always a 401. A failure prints the smallest request found that breaks a property.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import fc from 'fast-check';
import { adminToken, startTestApp, wrongAuthorizations, type TestApp } from './helpers.js';

let t: TestApp;
before(async () => {
  // The lock-out after failed attempts has its own tests (limits.test.ts); here it would turn the
  // tokenless requests' 401 into 429 after ten of them.
  t = await startTestApp({ demo: true, env: { ADMIN_MAX_FAILURES: '1000000' } });
});
after(() => t.close());

/** Runs per property. PROPERTY_RUNS_SCALE=10 (or more) searches longer, for a run by hand. */
const scale = Number(process.env.PROPERTY_RUNS_SCALE) || 1;
const numRuns = {
  public: Math.round(1500 * scale),
  paths: Math.round(500 * scale),
  admin: Math.round(1200 * scale),
  tokenless: Math.round(600 * scale),
};

const objectPrototype = Object.getOwnPropertyNames(Object.prototype).sort();
const arrayPrototype = Object.getOwnPropertyNames(Array.prototype).sort();

interface Attempt {
  method: string;
  url: string;
  headers: Record<string, string>;
  payload?: string | Buffer;
}
interface Answer {
  statusCode: number;
  headers: Record<string, string | string[] | number | undefined>;
  rawPayload: Buffer;
}

const send = (attempt: Attempt): Promise<Answer> =>
  t.app.inject({
    method: attempt.method as 'GET',
    url: attempt.url,
    headers: attempt.headers,
    ...(attempt.payload !== undefined && { payload: attempt.payload }),
  });

const describeAttempt = (attempt: Attempt) => {
  const text = JSON.stringify({ ...attempt, payload: String(attempt.payload ?? '').slice(0, 300) });
  return text.length > 1500 ? `${text.slice(0, 1500)}…` : text;
};

function bodyText(res: Answer): string {
  switch (res.headers['content-encoding']) {
    case 'br':
      return brotliDecompressSync(res.rawPayload).toString('utf8');
    case 'gzip':
      return gunzipSync(res.rawPayload).toString('utf8');
    case 'deflate':
      return inflateSync(res.rawPayload).toString('utf8');
    default:
      return res.rawPayload.toString('utf8');
  }
}

const adminErrorKeys = new Set(['code', 'field', 'limit', 'size', 'current', 'saved_by', 'used_by']);

function safeDecode(url: string): string {
  try {
    return decodeURIComponent(url);
  } catch {
    return url;
  }
}

/** A share page's address, `/a/<id>`: for people, so its "no such announcement" is an HTML page
 * (docs/reach.md#feeds-share-pages-and-search-engines), not the API's JSON error. */
const isSharePage = (attempt: Attempt) =>
  attempt.method === 'GET' && /^\/a\/[^/?#]+(\?|$)/.test(attempt.url) && !attempt.url.startsWith('/a/continue.js');

/** Below 500; an error is a JSON {status, msg} with the HTTP status, but for the share page's
 * HTML 404; JSON answers parse. */
function assertAnswer(attempt: Attempt, res: Answer): void {
  const what = `${describeAttempt(attempt)} → ${res.statusCode}`;
  assert.ok(res.statusCode >= 200 && res.statusCode < 500, `${what} ${bodyText(res).slice(0, 300)}`);
  if (attempt.method === 'HEAD' || res.statusCode === 204 || res.statusCode === 304) return;
  const type = String(res.headers['content-type'] ?? '');
  if (res.statusCode === 404 && isSharePage(attempt)) {
    assert.match(type, /^text\/html/, what);
    assert.match(bodyText(res), /^<!doctype html>/i, what);
  } else if (res.statusCode >= 400) {
    assert.match(type, /^application\/json/, what);
    const body = JSON.parse(bodyText(res)) as Record<string, unknown>;
    // Only the admin API adds its code and field (docs/console.md#error-codes).
    const extra = Object.keys(body).filter((key) => key !== 'msg' && key !== 'status');
    if (extra.length > 0) {
      assert.ok(/^\/v1\/admin(\/|\?|$)/.test(safeDecode(attempt.url)), what);
      assert.equal(typeof body.code, 'string', what);
      for (const key of extra) assert.ok(adminErrorKeys.has(key), what);
    }
    assert.equal(body.status, res.statusCode, what);
    assert.equal(typeof body.msg, 'string', what);
  } else if (type.startsWith('application/json')) {
    JSON.parse(bodyText(res));
  }
}

/** Everything the API can change (one query at a time: one pooled connection is enough). */
async function snapshot(): Promise<string> {
  const db = t.db.kysely;
  return JSON.stringify([
    await db.selectFrom('bulletins').selectAll().orderBy('id').execute(),
    await db.selectFrom('install_packages').selectAll().orderBy('os').execute(),
    await db.selectFrom('settings').select(['key', 'value']).orderBy('key').execute(),
    await db.selectFrom('stored_files').select(['key', 'sha256', 'content_type']).orderBy('key').execute(),
  ]);
}

/** After each property: the server still answers, and no prototype was polluted. */
async function assertStillServing(): Promise<void> {
  const ping = await t.app.inject('/v1/ping');
  assert.equal(ping.statusCode, 200);
  assert.deepEqual(ping.json(), { status: 200 });
  assert.equal((await t.app.inject('/healthz')).statusCode, 200);
  assert.deepEqual(Object.getOwnPropertyNames(Object.prototype).sort(), objectPrototype);
  assert.deepEqual(Object.getOwnPropertyNames(Array.prototype).sort(), arrayPrototype);
  const probe = {} as Record<string, unknown>;
  for (const key of ['polluted', 'x', 'id', 'title', 'isAdmin']) assert.equal(probe[key], undefined, key);
}

/** Percent-encodes the UTF-8 bytes of any text (a lone surrogate becomes U+FFFD's bytes). */
const pct = (text: string) =>
  [...Buffer.from(text, 'utf8')]
    .map((byte) =>
      /[A-Za-z0-9\-_.~]/.test(String.fromCharCode(byte))
        ? String.fromCharCode(byte)
        : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`,
    )
    .join('');

// ---- the malicious and the merely odd ----

const sqlFragments = [
  "1' OR '1'='1",
  "1' OR 1=1--",
  '1;DROP TABLE bulletins',
  '1; DROP TABLE bulletins;--',
  "'; DELETE FROM stored_files; --",
  '1 UNION SELECT key, data FROM stored_files',
  "' OR ''='",
  '1)) OR ((1=1',
  '1 AND SLEEP(5)',
  "1'; SELECT pg_sleep(5); --",
  '\\',
  "\\'",
  '"',
  '`',
  '$1',
  '?',
  ':id',
  '%',
  '_',
];
const oddities = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '%00',
  '\uD800',
  '\uDFFF',
  '\uFEFF',
  '\u202E',
  '../../../etc/passwd',
  '..%2f..%2f',
  '<script>alert(1)</script>',
  '${7*7}',
  '{{7*7}}',
  'null',
  'undefined',
  'NaN',
  'true',
  '[]',
  '{}',
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'hasOwnProperty',
  '\r\nX-Injected: 1',
  'x'.repeat(5000),
];
const idTexts = [
  '-1',
  '0',
  '-0',
  '1',
  '2',
  '12',
  '2147483647',
  '2147483648',
  '-2147483649',
  '4294967296',
  '9007199254740991',
  '9007199254740993',
  '1e309',
  '-1e309',
  '1e3',
  '1.5',
  '1.0',
  '0.1',
  '.5',
  '5.',
  '0x10',
  '0X1F',
  '0b11',
  '0o17',
  '017',
  '+1',
  ' 1',
  '1 ',
  '1\u0000',
  '١٢',
  '１２',
  'Ⅻ',
  '𝟙𝟚',
  'NaN',
  'Infinity',
  '-Infinity',
  '1_000',
  '1,000',
];

/** Characters that databases, headers and parsers treat specially, to be slipped into text. */
const trouble = fc.constantFrom(
  '\u0000',
  '\uD800',
  '\uDFFF',
  '\uFFFE',
  '\r\n',
  '\u2028',
  "'",
  '"',
  '\\',
  '%',
  '<',
  '\u0085',
);
const text = fc.oneof(
  fc.string(),
  fc.string({ unit: 'binary' }),
  fc.string({ unit: 'grapheme' }),
  fc.constantFrom(...sqlFragments, ...oddities),
  fc.tuple(fc.string({ minLength: 1 }), trouble, fc.string()).map((parts) => parts.join('')),
  fc.nat({ max: 20_000 }).map((n) => 'x'.repeat(n)),
);
const idText = fc.oneof(
  { arbitrary: fc.constantFrom(...idTexts), weight: 4 },
  { arbitrary: fc.integer().map(String), weight: 1 },
  { arbitrary: fc.bigInt({ min: -(2n ** 80n), max: 2n ** 80n }).map(String), weight: 1 },
  { arbitrary: fc.double().map(String), weight: 1 },
  { arbitrary: fc.constantFrom(...sqlFragments), weight: 1 },
  { arbitrary: text, weight: 1 },
);

/** Mostly ids that may exist (the demo has 12 announcements; more are added), else anything. */
const bulletinId = fc.oneof({ arbitrary: fc.integer({ min: 1, max: 40 }).map(String), weight: 2 }, idText);
/** Mostly page numbers and sizes in range, else anything. */
const pageNumber = fc.oneof({ arbitrary: fc.integer({ min: 1, max: 120 }).map(String), weight: 2 }, idText);

const queryKey = fc.oneof(
  fc.constantFrom(
    'id',
    'page_index',
    'page_size',
    'name',
    '__proto__',
    'constructor',
    'prototype',
    'constructor[prototype]',
    'constructor[prototype][polluted]',
    '__proto__[polluted]',
    'id[]',
    'id[0]',
    'id[__proto__]',
    'a[b][c]',
    'toString',
    'hasOwnProperty',
    'valueOf',
  ),
  text,
);
const rawQueryPiece = fc.constantFrom(
  '%',
  '%0',
  '%00',
  '%ZZ',
  '%E4',
  '%E4%BD',
  '%ff',
  '%C0%AE',
  '%F0%9F',
  '&',
  '&&',
  '=',
  '==',
  '=&=',
  '[',
  ']',
  '[]',
  '+',
  '%2B',
  ';',
  '__proto__=1',
  '__proto__[polluted]=1',
  'constructor[prototype][polluted]=1',
  'id=1&id=2',
  'id=1&id=',
  'id[]=1&id[]=2',
  'page_size=1&page_size=100',
);
const query = fc
  .array(
    fc.oneof(
      fc.tuple(queryKey, fc.oneof(idText, text)).map(([key, value]) => `${pct(key)}=${pct(value)}`),
      queryKey.map(pct),
      rawQueryPiece,
    ),
    { maxLength: 6 },
  )
  .map((pieces) => pieces.join('&'));
const withQuery = (path: string, q: string) => (q === '' ? path : `${path}?${q}`);

// ---- headers ----

const headerText = fc.string({
  unit: fc.integer({ min: 0x20, max: 0x7e }).map((code) => String.fromCharCode(code)),
  maxLength: 300,
});
const contentTypes = [
  'application/json',
  'application/json; charset=utf-8',
  'application/json; charset=utf-16',
  'application/json;charset=latin1',
  'APPLICATION/JSON',
  'application/json, text/plain',
  'application/jsonx',
  'application/ld+json',
  'text/plain',
  'text/html',
  'text/xml',
  'application/xml',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=----x',
  'application/octet-stream',
  'image/png',
  'image/svg+xml',
  'image/x-icon',
  'image/png; charset=utf-8',
  '',
  ';',
  '*/*',
  'application/*',
  'a/b/c',
  'application/json; boundary="',
  ' application/json ',
];
const contentType = fc.oneof(fc.constantFrom(...contentTypes), headerText);
const headers = fc.record(
  {
    'content-type': contentType,
    accept: fc.oneof(fc.constantFrom('application/json', 'text/html', '*/*', ''), headerText),
    'accept-encoding': fc.oneof(
      fc.constantFrom(
        'br',
        'gzip',
        'deflate',
        'br, gzip',
        'identity',
        'identity;q=0',
        '*;q=0',
        'br;q=0, gzip;q=0, identity;q=0',
        'zstd',
        'gzip;q=abc',
        '*',
      ),
      headerText,
    ),
    'if-none-match': fc.oneof(fc.constantFrom('*', 'W/"x"', '"', ''), headerText),
    'if-modified-since': headerText,
    origin: fc.oneof(fc.constantFrom('https://evil.example.com', 'null', '*'), headerText),
    'access-control-request-method': fc.constantFrom('GET', 'PUT', 'DELETE', 'X'),
    'x-forwarded-for': fc.oneof(fc.constantFrom('1.2.3.4', '::1', '1.2.3.4, 5.6.7.8', 'not an ip', ''), headerText),
    'x-forwarded-host': headerText,
    'x-forwarded-proto': fc.oneof(fc.constantFrom('https', 'javascript', ''), headerText),
    host: fc.oneof(fc.constantFrom('localhost', 'evil.example.com:99999', '[::1]:80', ''), headerText),
    os: fc.constantFrom('WEB', 'iOS', ''),
    range: headerText,
    cookie: headerText,
    'x-http-method-override': fc.constantFrom('DELETE', 'PUT'),
  },
  { requiredKeys: [] },
) as fc.Arbitrary<Record<string, string>>;

// ---- bodies ----

const anyJson = fc.jsonValue({ maxDepth: 3 });
/** Mostly the right kind of value, sometimes any JSON at all. */
const maybe = <T>(valid: fc.Arbitrary<T>) =>
  fc.oneof({ arbitrary: valid, weight: 8 }, { arbitrary: anyJson as fc.Arbitrary<unknown>, weight: 1 });
const urlText = fc.oneof(
  { arbitrary: fc.webUrl({ withQueryParameters: true, withFragments: true }), weight: 6 },
  fc.constantFrom(
    'https://x.example/a',
    'javascript:alert(1)',
    'data:text/html,<script>alert(1)</script>',
    'file/preview/0123456789abcdef-none.ipa',
    'https://',
    '//evil.example.com',
    'https://x.example/\u0000',
    'https://x.example/\uD800',
  ),
  text,
  fc.tuple(fc.webUrl(), trouble).map((parts) => parts.join('')),
);
const hex64 = fc.string({ unit: fc.constantFrom(...'0123456789abcdef'), minLength: 64, maxLength: 64 });
const wireTime = fc
  .date({ noInvalidDate: true, min: new Date('1900-01-01T00:00:00Z'), max: new Date('2200-01-01') })
  .map((date) => date.toISOString().replace('T', ' ').slice(0, 19));

const bulletinBody = fc
  .record({
    title: maybe(
      fc.oneof(fc.string({ minLength: 1, maxLength: 40 }), fc.string({ unit: 'binary', maxLength: 40 }), text),
    ),
    content: maybe(text),
    topup: maybe(fc.constantFrom(0, 1)),
    // An unknown field makes the whole body wrong: only one body in six has one.
    extra: fc.oneof({ arbitrary: fc.constant(undefined), weight: 5 }, { arbitrary: anyJson, weight: 1 }),
  })
  .map(({ extra, ...known }) => (extra === undefined ? known : { ...known, extra }));
const packagesBody = fc.array(
  fc.record(
    {
      OS: maybe(fc.constantFrom('android', 'ios', 'windows', 'mac', 'linux', '', 'ANDROID')),
      DownloadURL: maybe(urlText),
      version: maybe(text),
      size: maybe(fc.oneof(fc.integer(), fc.double(), fc.constant(2 ** 53 + 1))),
      sha256: maybe(fc.oneof(hex64, text)),
      released_at: maybe(fc.oneof(wireTime, text)),
      release_notes_url: maybe(urlText),
    },
    { requiredKeys: ['OS', 'DownloadURL'] },
  ),
  { maxLength: 6 },
);
const appConfigBody = fc.record(
  { use_cdn: maybe(fc.constantFrom(0, 1)), common_cdn_bucket_url: maybe(fc.oneof(fc.constant(''), urlText)) },
  { requiredKeys: [] },
);
const addrs = maybe(fc.array(fc.record({ addr: maybe(urlText) }, { requiredKeys: [] }), { maxLength: 4 }));
const regionBody = fc.record({ api_addrs: addrs, allocator_addrs: addrs }, { requiredKeys: [] });

const pollution = fc.constantFrom(
  '{"__proto__":{"polluted":1}}',
  '{"constructor":{"prototype":{"polluted":1}}}',
  '{"title":"x","content":"","__proto__":{"polluted":1}}',
  '{"title":"x","content":"","constructor":{"prototype":{"polluted":1}}}',
  '[{"__proto__":{"polluted":1}}]',
  '{"a":{"__proto__":{"polluted":1}}}',
  '{"__proto__":[]}',
  '{"\\u005f\\u005fproto\\u005f\\u005f":{"polluted":1}}',
  '{"use_cdn":0,"common_cdn_bucket_url":"","__proto__":{"polluted":1}}',
  '{"api_addrs":[],"allocator_addrs":[],"__proto__":{"polluted":1}}',
  '[{"OS":"ios","DownloadURL":"https://x.example/a","__proto__":{"polluted":1}}]',
  '[{"OS":"ios","DownloadURL":"https://x.example/a","constructor":{"prototype":{"polluted":1}}}]',
);
const deepNesting = fc
  .tuple(fc.integer({ min: 1, max: 50_000 }), fc.nat({ max: 3 }))
  .map(([n, shape]) =>
    shape === 0
      ? '['.repeat(n) + ']'.repeat(n)
      : shape === 1
        ? '{"a":'.repeat(n) + '1' + '}'.repeat(n)
        : shape === 2
          ? '['.repeat(n)
          : '{"title":'.repeat(n),
  );
const hugeBody = fc.constantFrom(
  JSON.stringify({ title: 'huge', content: 'x'.repeat(1_100_000) }),
  JSON.stringify([{ OS: 'ios', DownloadURL: `https://x.example/${'x'.repeat(1_100_000)}` }]),
  `"${'x'.repeat(1_100_000)}"`,
);
const safeStringify = (value: unknown) => {
  try {
    return JSON.stringify(value) ?? 'null';
  } catch {
    return 'null';
  }
};
/** A JSON request body: mostly near the route's shape, else anything, hostile or not JSON. */
const jsonBody = (shaped: fc.Arbitrary<unknown>) =>
  fc.record({
    payload: fc.oneof(
      { arbitrary: shaped.map(safeStringify), weight: 14 },
      { arbitrary: anyJson.map(safeStringify), weight: 1 },
      { arbitrary: fc.anything().map(safeStringify), weight: 1 },
      { arbitrary: pollution, weight: 2 },
      { arbitrary: deepNesting, weight: 1 },
      { arbitrary: hugeBody, weight: 1 },
      { arbitrary: text, weight: 1 },
    ),
    type: fc.oneof(
      { arbitrary: fc.constantFrom('application/json', 'application/json; charset=utf-8'), weight: 10 },
      { arbitrary: contentType, weight: 1 },
    ),
  });

const png = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);
const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
const imageTypes = [
  'image/png',
  'image/jpeg',
  'image/gif',
  'image/webp',
  'image/avif',
  'image/svg+xml',
  'image/x-icon',
];
const fileName = fc.oneof(
  fc.constantFrom(
    'a.png',
    'a.svg',
    'a.jpg',
    'a.PNG',
    '../a.png',
    '..\\a.png',
    'a/b.png',
    '.png',
    'a.png.html',
    'a.html',
    'a.png\u0000.html',
    '\u0000',
    'a\r\n.png',
    '你好.png',
    '"quoted".png',
    `${'x'.repeat(300)}.png`,
  ),
  text,
);
const imageSamples: [string, string, Buffer][] = [
  ['png', 'image/png', png],
  ['svg', 'image/svg+xml', svg],
  ['gif', 'image/gif', Buffer.from('GIF89a\x01\x00\x01\x00', 'latin1')],
  ['jpg', 'image/jpeg', Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10])],
  ['ico', 'image/x-icon', Buffer.from([0, 0, 1, 0, 1, 0])],
];
/** A real image of an accepted type under a random name, or any bytes under any type. */
const upload = fc.oneof(
  fc
    .tuple(fc.constantFrom(...imageSamples), text, fc.uint8Array({ maxLength: 100 }))
    .map(([[extension, type, bytes], name, tail]) => ({
      name: `${name}.${extension}`,
      type,
      payload: Buffer.concat([bytes, Buffer.from(tail)]),
    })),
  fc.record({
    name: fileName,
    type: fc.oneof(fc.constantFrom(...imageTypes), contentType),
    payload: fc.oneof(
      fc.constantFrom(png, svg, Buffer.from('<html><script>alert(1)</script></html>'), Buffer.alloc(0)),
      fc.uint8Array({ maxLength: 2000 }).map((bytes) => Buffer.from(bytes)),
      fc.uint8Array({ maxLength: 200 }).map((bytes) => Buffer.concat([png, Buffer.from(bytes)])),
      text,
    ),
  }),
);

// ---- the requests ----

const publicPaths = [
  '/v1/ping',
  '/v1/region',
  '/v1/common/appconfig',
  '/v1/common/getInstallPackageAddrs',
  '/v1/bulletin/page',
  '/v1/bulletin/detail',
  '/healthz',
  '/',
  '/index.html',
];
const method = fc.constantFrom('GET', 'GET', 'GET', 'GET', 'HEAD', 'OPTIONS', 'POST', 'PUT', 'DELETE', 'PATCH');

function publicRequest(storedKeys: string[]) {
  const previewKey = fc.oneof(
    fc.constantFrom(...storedKeys),
    fc.tuple(fc.constantFrom(...storedKeys), text).map(([key, suffix]) => key + suffix),
    fc.constantFrom(...storedKeys).map((key) => key.toUpperCase()),
    idText,
    text,
  );
  const url = fc.oneof(
    fc.tuple(fc.constantFrom(...publicPaths), query).map(([path, q]) => withQuery(path, q)),
    fc.tuple(bulletinId, query).map(([id, q]) => `/v1/bulletin/detail?id=${pct(id)}&${q}`),
    fc
      .tuple(pageNumber, pageNumber, query)
      .map(([index, size, q]) => `/v1/bulletin/page?page_index=${pct(index)}&page_size=${pct(size)}&${q}`),
    fc.tuple(previewKey, query).map(([key, q]) => withQuery(`/v1/file/preview/${pct(key)}`, q)),
  );
  return fc
    .record({
      method,
      url,
      headers,
      payload: fc.option(fc.oneof(text, pollution, anyJson.map(safeStringify)), { nil: undefined }),
    })
    .map((attempt): Attempt => ({ ...attempt, url: attempt.url.replace(/&$/, '') }));
}

const oddPaths = fc.oneof(
  fc.constantFrom(
    '/v1//ping',
    '/v1/./ping',
    '/v1/../v1/ping',
    '/v1/ping/',
    '/v1/PING',
    '/v1/ping;x',
    '/v1/%2e%2e/v1/ping',
    '/v1/file/preview/',
    '/v1/file/preview/..%2f..%2fetc%2fpasswd',
    '/v1/file/preview/%2e%2e',
    '/v1/admin',
    '/v1/admin/',
    '/v1/admin/bulletins/',
    '/v1/admin/../ping',
    '/v1/%',
    '/v1/%00',
    '/%ZZ',
    '/index.html/',
    '/assets/../../../../etc/passwd',
    '/assets/%2e%2e/%2e%2e/etc/passwd',
    '/a/0',
    '/a/1%27%20OR%20%271%27%3D%271',
    '/a/%00',
    '/a/1/',
  ),
  fc.array(text, { minLength: 1, maxLength: 4 }).map((segments) => `/v1/${segments.map(pct).join('/')}`),
  fc.array(text, { minLength: 1, maxLength: 3 }).map((segments) => `/${segments.map(pct).join('/')}`),
);

/** An id that reaches the route at all: an empty one or one over the router's 200-character
 * limit is refused (404, 414) before any route, admin or not, is chosen. */
const isRoutableId = (id: string) => id !== '' && pct(id).length <= 200;

interface AdminRequest {
  method: string;
  url: string;
  payload?: string | Buffer;
  type?: string;
  /** false when the router refuses the path before the admin API sees it. */
  routable?: boolean;
}

const adminRequest: fc.Arbitrary<AdminRequest> = fc.oneof(
  fc.tuple(query, jsonBody(bulletinBody)).map(([q, body]) => ({
    method: 'POST',
    url: withQuery('/v1/admin/bulletins', q),
    ...body,
  })),
  fc.tuple(bulletinId, jsonBody(bulletinBody)).map(([id, body]) => ({
    method: 'PUT',
    url: `/v1/admin/bulletins/${pct(id)}`,
    routable: isRoutableId(id),
    ...body,
  })),
  fc.tuple(bulletinId, fc.option(jsonBody(anyJson), { nil: undefined })).map(([id, body]) => ({
    method: 'DELETE',
    url: `/v1/admin/bulletins/${pct(id)}`,
    routable: isRoutableId(id),
    ...body,
  })),
  jsonBody(packagesBody).map((body) => ({ method: 'PUT', url: '/v1/admin/packages', ...body })),
  jsonBody(appConfigBody).map((body) => ({ method: 'PUT', url: '/v1/admin/appconfig', ...body })),
  jsonBody(regionBody).map((body) => ({ method: 'PUT', url: '/v1/admin/region', ...body })),
  fc.tuple(upload, query).map(([{ name, ...body }, q]) => ({
    method: 'POST',
    url: `/v1/admin/files?name=${pct(name)}${q === '' ? '' : `&${q}`}`,
    ...body,
  })),
);

/** The attempt as sent: random headers, the body's own content type when it has one. */
const adminAttempt = (
  request: AdminRequest,
  randomHeaders: Record<string, string>,
  authorization: string | undefined,
): Attempt => {
  const sent: Record<string, string> = { ...randomHeaders };
  delete sent.authorization;
  if (request.type !== undefined) sent['content-type'] = request.type;
  if (authorization !== undefined) sent.authorization = authorization;
  return {
    method: request.method,
    url: request.url,
    headers: sent,
    ...(request.payload !== undefined && { payload: request.payload }),
  };
};

describe('every endpoint under random and hostile input', () => {
  test('public endpoints: any query, id, key, header and body answers below 500 and changes nothing', async () => {
    const keys = (await t.db.kysely.selectFrom('stored_files').select('key').execute()).map((row) => row.key);
    assert.ok(keys.length > 0, 'the demo content has hosted files');
    const before = await snapshot();
    await fc.assert(
      fc.asyncProperty(publicRequest(keys), async (attempt) => {
        assertAnswer(attempt, await send(attempt));
      }),
      { numRuns: numRuns.public },
    );
    assert.equal(await snapshot(), before);
    await assertStillServing();
  });

  test('unknown and odd paths are JSON errors below 500', async () => {
    const before = await snapshot();
    await fc.assert(
      fc.asyncProperty(oddPaths, query, method, headers, async (path, q, verb, random) => {
        const attempt: Attempt = { method: verb, url: withQuery(path, q), headers: random };
        assertAnswer(attempt, await send(attempt));
      }),
      { numRuns: numRuns.paths },
    );
    assert.equal(await snapshot(), before);
    await assertStillServing();
  });

  test('admin endpoints with the token: below 500, and a refused request changes nothing', async () => {
    await fc.assert(
      fc.asyncProperty(adminRequest, headers, async (request, random) => {
        const attempt = adminAttempt(request, random, `Bearer ${adminToken}`);
        const before = await snapshot();
        const res = await send(attempt);
        assertAnswer(attempt, res);
        if (res.statusCode >= 400) assert.equal(await snapshot(), before, describeAttempt(attempt));
      }),
      { numRuns: numRuns.admin },
    );
    await assertStillServing();
  });

  test('admin endpoints without the token: always a 401 that changes nothing', async () => {
    const authorization = fc.oneof(
      fc.constant(undefined),
      fc.constantFrom(...wrongAuthorizations),
      headerText.map((guess) => `Bearer ${guess}`),
      headerText,
    );
    const before = await snapshot();
    await fc.assert(
      fc.asyncProperty(adminRequest, headers, authorization, async (request, random, auth) => {
        fc.pre(auth === undefined || auth.trim() !== `Bearer ${adminToken}`);
        const attempt = adminAttempt(request, random, auth);
        const res = await send(attempt);
        if (request.routable === false && res.statusCode !== 401) {
          // Not an admin action at all: the router's own refusal (404, 414, or 415 for its body).
          assertAnswer(attempt, res);
          assert.ok(res.statusCode >= 400, describeAttempt(attempt));
          return;
        }
        assert.equal(res.statusCode, 401, describeAttempt(attempt));
        assert.deepEqual(JSON.parse(bodyText(res)), { status: 401, msg: 'unauthorized', code: 'signed_out' });
      }),
      { numRuns: numRuns.tokenless },
    );
    assert.equal(await snapshot(), before);
    await assertStillServing();
  });

  test('an OPTIONS request that is not a complete CORS preflight is answered like any other', async () => {
    for (const preflight of [
      {},
      { origin: 'https://site.example' },
      { 'access-control-request-method': 'GET' },
    ] as Record<string, string>[]) {
      const attempt: Attempt = { method: 'OPTIONS', url: '/v1/bulletin/page', headers: preflight };
      const res = await send(attempt);
      assertAnswer(attempt, res);
      assert.equal(res.statusCode, 204, describeAttempt(attempt));
    }
  });

  test('a release time at or before 1970 is stored, not a 500 (the property above found it)', async () => {
    for (const released_at of ['1970-01-01 00:00:00', '1970-01-01 08:00:00', '1959-12-23 08:36:05']) {
      const attempt: Attempt = {
        method: 'PUT',
        url: '/v1/admin/packages',
        headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
        payload: JSON.stringify([{ OS: 'android', DownloadURL: 'https://x.example/a.apk', released_at }]),
      };
      const res = await send(attempt);
      assertAnswer(attempt, res);
      assert.equal(res.statusCode, 200, describeAttempt(attempt));
      const served = await t.app.inject('/v1/common/getInstallPackageAddrs');
      assert.equal(served.json<{ released_at?: string }[]>()[0]?.released_at, released_at);
    }
  });
});
