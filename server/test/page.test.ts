import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync } from 'node:zlib';
import { after, before, describe, test } from 'node:test';
import { prerenderMarker, siteConfigMetaName, type SiteConfig } from '@chat-site/contract';
import { inlineHashes } from '../src/page/inline-hashes.js';
import { withPrimaryHostMark } from '../src/page/primary-host.js';
import { bearer, repoRoot, startTestApp, type TestApp } from './helpers.js';

const decodeEntities = (text: string) =>
  text.replace(
    /&(quot|amp|lt|gt|#39);/g,
    (_, name: string) => ({ quot: '"', amp: '&', lt: '<', gt: '>', '#39': "'" })[name] ?? '',
  );

function siteConfigIn(html: string): SiteConfig {
  const content = new RegExp(`<meta name="${siteConfigMetaName}" content="([^"]*)">`).exec(html)?.[1];
  assert.ok(content !== undefined, 'the page carries the site config');
  return JSON.parse(decodeEntities(content)) as SiteConfig;
}

function cspOf(headers: Record<string, unknown>): Map<string, string> {
  const policy = String(headers['content-security-policy']);
  return new Map(policy.split(';').map((part) => part.trim().split(/ (.*)/s) as [string, string]));
}

describe('the page before the site is built', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp();
  });
  after(() => t.close());

  test('/ is a plain page that carries the site config, with no inline script', async () => {
    const res = await t.app.inject('/');
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers['content-type'], 'text/html; charset=utf-8');
    assert.equal(res.headers['cache-control'], 'no-cache');
    const committed = JSON.parse(readFileSync(join(repoRoot, 'site.config.json'), 'utf8')) as SiteConfig;
    assert.deepEqual(siteConfigIn(res.body), committed);
    // Data blocks (JSON-LD) are not scripts a browser runs; anything else would be inline code.
    const scriptTags = res.body.match(/<script\b[^>]*>/gi) ?? [];
    assert.deepEqual(
      scriptTags.filter((tag) => tag !== '<script type="application/ld+json">'),
      [],
    );
    assert.match(res.body, /<html lang="zh-CN">/);
  });

  test('security headers: strict CSP, nosniff, no framing, referrer and permissions policies', async () => {
    const res = await t.app.inject('/');
    const csp = cspOf(res.headers);
    assert.equal(csp.get('script-src'), "'self'");
    assert.equal(csp.get('frame-ancestors'), "'none'");
    assert.equal(csp.get('object-src'), "'none'");
    assert.doesNotMatch(String(res.headers['content-security-policy']), /unsafe-(inline|eval)/);
    assert.equal(res.headers['x-content-type-options'], 'nosniff');
    assert.equal(res.headers['x-frame-options'], 'DENY');
    assert.equal(res.headers['referrer-policy'], 'strict-origin-when-cross-origin');
    assert.match(String(res.headers['permissions-policy']), /camera=\(\)/);
  });

  test('the CSP lets the page reach any HTTPS origin and, over plain HTTP, only the addresses the operator set', async () => {
    // Region documents and app configs fetched at run time name addresses no config knows:
    // docs/site.md#content-security-policy.
    const unset = cspOf((await t.app.inject('/')).headers);
    assert.equal(unset.get('img-src'), "'self' data: https:");
    assert.equal(unset.get('connect-src'), "'self' https:");
    const cdn = await t.app.inject({
      method: 'PUT',
      url: '/v1/admin/appconfig',
      headers: bearer,
      payload: { use_cdn: 1, common_cdn_bucket_url: 'http://cdn.local:9000/bucket' },
    });
    const region = await t.app.inject({
      method: 'PUT',
      url: '/v1/admin/region',
      headers: bearer,
      payload: {
        api_addrs: [{ addr: 'https://api2.example.com' }, { addr: 'http://api3.local:8080' }],
        allocator_addrs: [{ addr: 'http://r.local/v1/region' }, { addr: 'https://r.example.com/v1/region' }],
      },
    });
    assert.deepEqual([cdn.statusCode, region.statusCode], [200, 200]);
    const csp = cspOf((await t.app.inject('/')).headers);
    // HTTPS origins are covered by `https:`; plain-HTTP ones are named.
    assert.equal(csp.get('img-src'), "'self' data: https: http://api3.local:8080 http://cdn.local:9000");
    assert.equal(csp.get('connect-src'), "'self' https: http://api3.local:8080 http://r.local http://cdn.local:9000");
    // Scripts, styles and everything else stay the site's own.
    assert.equal(csp.get('script-src'), "'self'");
    assert.equal(csp.get('style-src'), "'self'");
    assert.equal(csp.get('default-src'), "'self'");
    assert.equal(csp.get('font-src'), "'self'");
    assert.equal(csp.get('worker-src'), "'self'");
  });

  test('no HSTS unless the operator says the site is behind TLS', async () => {
    assert.equal((await t.app.inject('/')).headers['strict-transport-security'], undefined);
    const tls = await startTestApp({ env: { BEHIND_TLS: '1' } });
    try {
      const res = await tls.app.inject('/');
      assert.equal(res.headers['strict-transport-security'], 'max-age=31536000; includeSubDomains');
      assert.equal(res.headers['cross-origin-opener-policy'], 'same-origin');
    } finally {
      await tls.close();
    }
  });

  test('an unknown path outside /v1/ is a 404', async () => {
    const res = await t.app.inject('/no-such-page');
    assert.equal(res.statusCode, 404);
  });
});

describe('the page and assets of a built site', () => {
  let t: TestApp;
  let webRoot: string;
  const script = `console.log(${JSON.stringify('x'.repeat(4000))});`;
  before(async () => {
    webRoot = mkdtempSync(join(tmpdir(), 'web-dist-'));
    mkdirSync(join(webRoot, 'assets'));
    writeFileSync(
      join(webRoot, 'index.html'),
      '<!doctype html><html lang="zh-CN"><head><script type="module" src="/assets/app-3f9a1c.js"></script></head><body></body></html>',
    );
    writeFileSync(join(webRoot, 'assets/app-3f9a1c.js'), script);
    writeFileSync(join(webRoot, 'assets/app-3f9a1c.js.br'), brotliCompressSync(script));
    writeFileSync(join(webRoot, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
    t = await startTestApp({ env: { WEB_ROOT: webRoot } });
  });
  after(() => t.close());

  test('the built index.html gets the site config in its head', async () => {
    for (const url of ['/', '/index.html']) {
      const res = await t.app.inject(url);
      assert.equal(res.statusCode, 200);
      assert.equal(res.headers['cache-control'], 'no-cache');
      const head = res.body.slice(0, res.body.indexOf('</head>'));
      assert.match(head, /<meta name="site-config" content="[^"]+">/);
      assert.equal(siteConfigIn(res.body).productName.length > 0, true);
    }
  });

  test('the page is kept per address it is asked at: compressed once, with an ETag and its CSP on every answer', async () => {
    const plain = await t.app.inject('/');
    const packed = await t.app.inject({ url: '/', headers: { 'accept-encoding': 'br, gzip' } });
    assert.equal(packed.headers['content-encoding'], 'br');
    assert.equal(brotliDecompressSync(packed.rawPayload).toString('utf8'), plain.body);
    const etag = String(packed.headers.etag);
    assert.match(etag, /^W\/"/);
    assert.equal(plain.headers.etag, etag);
    const again = await t.app.inject({ url: '/', headers: { 'if-none-match': etag } });
    assert.equal(again.statusCode, 304);
    assert.equal(again.headers['cache-control'], 'no-cache');
    assert.ok(String(again.headers['content-security-policy']).includes("default-src 'self'"));
  });

  test('a new Host header is not a new page: one copy for the primary domain, one for every other host', async () => {
    const first = await t.app.inject({ url: '/', headers: { 'accept-encoding': 'br' } });
    const held = t.app.readCache.entries;
    for (let n = 0; n < 50; n++) {
      const res = await t.app.inject({
        url: '/',
        headers: { host: `mirror-${n}.example.net`, 'accept-encoding': 'br' },
      });
      assert.equal(res.headers.etag, first.headers.etag);
      assert.ok(!res.body.includes('mirror-'), 'the page does not name the Host it was asked at');
    }
    assert.equal(t.app.readCache.entries, held, 'no copy was made for another host');
    const { primaryDomain } = siteConfigIn((await t.app.inject('/')).body);
    const primary = await t.app.inject({ url: '/', headers: { host: primaryDomain } });
    assert.notEqual(primary.headers.etag, first.headers.etag);
    // Without PUBLIC_URL the app's JSON-LD addresses are relative: JSON-LD resolves them against the page.
    assert.match((await t.app.inject('/')).body, /"url":"\/","downloadUrl":"\/#\/download"/);
  });

  test('on the primary domain (and www., any case, any port) the root element is marked, elsewhere not', async () => {
    const { primaryDomain } = siteConfigIn((await t.app.inject('/')).body);
    const rootOf = (html: string) => /<html\b[^>]*>/.exec(html)?.[0];
    for (const host of [primaryDomain, `www.${primaryDomain}:8443`, primaryDomain.toUpperCase()]) {
      const res = await t.app.inject({ url: '/', headers: { host } });
      assert.equal(rootOf(res.body), '<html lang="zh-CN" class="primary-host">', host);
    }
    for (const host of ['localhost', `mirror.${primaryDomain}`, `${primaryDomain}.evil.test`]) {
      const res = await t.app.inject({ url: '/', headers: { host } });
      assert.equal(rootOf(res.body), '<html lang="zh-CN">', host);
    }
  });

  test('the mark joins the classes the page already has', () => {
    const page =
      '<!doctype html><html lang="zh-CN" class="dark"><head></head><body><html-like></html-like></body></html>';
    assert.equal(withPrimaryHostMark(page, true), page.replace('class="dark"', 'class="dark primary-host"'));
    assert.equal(withPrimaryHostMark(page, false), page);
  });

  test('hashed assets are immutable and served brotli-compressed ahead of time', async () => {
    const res = await t.app.inject({ url: '/assets/app-3f9a1c.js', headers: { 'accept-encoding': 'br, gzip' } });
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers['cache-control'], 'public, max-age=31536000, immutable');
    assert.equal(res.headers['content-encoding'], 'br');
    assert.deepEqual(res.rawPayload, brotliCompressSync(script));
    const plain = await t.app.inject('/assets/app-3f9a1c.js');
    assert.equal(plain.body, script);
  });

  test('a build with no page in a language sends the default’s page for it (its boot script turns it off)', async () => {
    const res = await t.app.inject({ url: '/?lang=en', headers: { 'accept-language': 'en' } });
    assert.equal(res.statusCode, 200);
    assert.match(res.body, /<html lang="zh-CN">/);
    assert.equal(res.headers.etag, (await t.app.inject('/')).headers.etag, 'the same answer');
  });

  test('other static files are cached briefly', async () => {
    const res = await t.app.inject('/favicon.svg');
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers['cache-control'], 'public, max-age=3600');
    assert.equal((await t.app.inject('/assets/missing-000.js')).statusCode, 404);
  });
});

describe('a built page with inline boot script and stylesheet, and a prerendered landing page', () => {
  let t: TestApp;
  const boot = "document.documentElement.classList.add('dark');";
  const css = 'html{background:#0b1220}';
  const sha = (text: string) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
  before(async () => {
    const webRoot = mkdtempSync(join(tmpdir(), 'web-dist-'));
    // What the build writes (web/build/prerender.ts): markers where the settings' text goes.
    writeFileSync(
      join(webRoot, 'index.html'),
      `<!doctype html><html lang="zh-CN"><head><script>${boot}</script>` +
        `<script type="module" src="/assets/app.js"></script><style>${css}</style></head>` +
        `<body><div id="root"><div data-prerender=""><img alt="${prerenderMarker('productName')} 标志">` +
        `<h1>${prerenderMarker('productName')}</h1><a href="${prerenderMarker('webClientUrl')}">web</a>` +
        `<p>${prerenderMarker('apiAddrs')}</p></div></div></body></html>`,
    );
    const site = JSON.parse(readFileSync(join(repoRoot, 'site.config.json'), 'utf8')) as SiteConfig;
    const siteFile = join(webRoot, 'site.json');
    writeFileSync(
      siteFile,
      JSON.stringify({
        ...site,
        productName: 'Nova <Chat> & "Co" $\' $& $`',
        webClientUrl: 'https://web.nova.example/?a=1&b=2',
      }),
    );
    t = await startTestApp({ env: { WEB_ROOT: webRoot, SITE_CONFIG: siteFile } });
  });
  after(() => t.close());

  test('the CSP allows exactly the page’s own inline script and style, by hash', async () => {
    const res = await t.app.inject('/');
    const csp = cspOf(res.headers);
    assert.equal(csp.get('script-src'), `'self' ${sha(boot)}`);
    assert.equal(csp.get('style-src'), `'self' ${sha(css)}`);
    assert.doesNotMatch(String(res.headers['content-security-policy']), /unsafe-(inline|eval|hashes)/);
    // The hashes are of the bytes the browser gets.
    assert.ok(res.body.includes(`<script>${boot}</script>`) && res.body.includes(`<style>${css}</style>`));
  });

  test('the prerendered landing page shows the current settings, not the build’s', async () => {
    const { body } = await t.app.inject('/');
    assert.doesNotMatch(body, /\uE000/, 'no marker is left');
    const name = 'Nova &lt;Chat&gt; &amp; &quot;Co&quot; $&#39; $&amp; $`';
    assert.ok(body.includes(`<h1>${name}</h1>`), body);
    assert.ok(body.includes(`alt="${name} 标志"`));
    // `$'`, `$&` and `` $` `` are text, not replacement patterns: nothing of the page is pasted in.
    assert.equal(body.split('<body>').length, 2, 'the body appears once');
    const meta = /<meta name="site-config" content="([^"]*)">/.exec(body)?.[1] ?? '';
    assert.ok(meta.includes('Nova &lt;Chat&gt; &amp; \\&quot;Co\\&quot; $&#39; $&amp; $`'), meta);
    assert.match(body, /<a href="https:\/\/web\.nova\.example\/\?a=1&amp;b=2">/);
    assert.match(body, /<p><\/p>/, 'a setting that is not text leaves nothing');
  });
});

describe('the page in the visitor’s language', () => {
  let t: TestApp;
  const sha = (text: string) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
  const boot = (language: string) => `document.documentElement.dataset.built=${JSON.stringify(language)};`;
  // Over 1 KB, as the real pages are, so that they are compressed.
  const filler = '<p>prerendered</p>'.repeat(100);
  before(async () => {
    const webRoot = mkdtempSync(join(tmpdir(), 'web-dist-'));
    // What the build writes (web/build/prerender.ts): one page per language.
    for (const [file, language] of [
      ['index.html', 'zh-CN'],
      ['index.zh-TW.html', 'zh-TW'],
      ['index.en.html', 'en'],
    ] as const) {
      writeFileSync(
        join(webRoot, file),
        `<!doctype html><html lang="${language}"><head><script>${boot(language)}</script></head>` +
          `<body><div id="root">${filler}</div></body></html>`,
      );
    }
    t = await startTestApp({ env: { WEB_ROOT: webRoot } });
  });
  after(() => t.close());

  const langOf = (html: string) => /<html lang="([^"]+)"/.exec(html)?.[1];
  const ask = async (url: string, headers: Record<string, string> = {}) => {
    const res = await t.app.inject({ url, headers });
    assert.equal(res.statusCode, 200);
    return res;
  };

  test('Accept-Language picks the page by q-value; any Chinese of Taiwan, Hong Kong, Macau or Hant is zh-TW', async () => {
    const cases: [string | undefined, string][] = [
      [undefined, 'zh-CN'],
      ['en-US,en;q=0.9', 'en'],
      ['fr-FR, zh-HK;q=0.5, en;q=0.4', 'zh-TW'],
      ['en;q=0.1, zh-Hant;q=0.2', 'zh-TW'],
      ['zh-SG, en;q=0.9', 'zh-CN'],
      ['en;q=0, zh-MO;q=0.1', 'zh-TW'],
      ['fr, de;q=0.5', 'zh-CN'],
    ];
    for (const [header, expected] of cases) {
      const res = await ask('/', header === undefined ? {} : { 'accept-language': header });
      assert.equal(langOf(res.body), expected, String(header));
    }
  });

  test('`?lang=` beats the cookie, which beats Accept-Language; values the site does not speak are skipped', async () => {
    const english = { 'accept-language': 'en' };
    assert.equal(langOf((await ask('/', { ...english, cookie: 'a=1; lang=zh-TW' })).body), 'zh-TW');
    assert.equal(langOf((await ask('/?lang=zh-CN', { ...english, cookie: 'lang=zh-TW' })).body), 'zh-CN');
    assert.equal(langOf((await ask('/index.html?lang=en', { cookie: 'lang=zh-TW' })).body), 'en');
    assert.equal(langOf((await ask('/?lang=fr', { ...english, cookie: 'lang=zh-TW' })).body), 'zh-TW');
    assert.equal(langOf((await ask('/', { ...english, cookie: 'lang=klingon' })).body), 'en');
    assert.equal(langOf((await ask('/?lang=en&lang=zh-TW')).body), 'en', 'the first, as the site reads it');
  });

  test('the page varies by Accept-Language and Cookie, beside Accept-Encoding, each named once', async () => {
    for (const encoding of ['br', 'gzip', undefined]) {
      const res = await ask('/', encoding === undefined ? {} : { 'accept-encoding': encoding });
      const vary = String(res.headers.vary)
        .split(',')
        .map((name) => name.trim().toLowerCase())
        .sort();
      assert.deepEqual(vary, ['accept-encoding', 'accept-language', 'cookie'], String(encoding));
    }
  });

  test('each language’s page is kept and compressed once, with an ETag of its own and its own CSP hashes', async () => {
    // Asked once each first, so that the cache holds them all.
    const variants = { 'zh-CN': 'zh-CN', 'zh-TW': 'zh-HK', en: 'en-GB' } as const;
    for (const header of Object.values(variants))
      await ask('/', { 'accept-language': header, 'accept-encoding': 'br' });
    const held = t.app.readCache.entries;
    const etags = new Map<string, string>();
    for (const [language, header] of Object.entries(variants)) {
      const asks: Record<string, string>[] = [
        { 'accept-language': header, 'accept-encoding': 'br' },
        { cookie: `lang=${language}`, 'accept-encoding': 'br' },
        { 'accept-language': `fr, ${header};q=0.5` },
      ];
      for (const [n, headers] of asks.entries()) {
        const res = await ask('/', headers);
        const body =
          res.headers['content-encoding'] === 'br' ? brotliDecompressSync(res.rawPayload).toString() : res.body;
        assert.equal(langOf(body), language);
        assert.equal(cspOf(res.headers).get('script-src'), `'self' ${sha(boot(language))}`);
        if (n === 0) etags.set(language, String(res.headers.etag));
        assert.equal(res.headers.etag, etags.get(language), `${language} is one answer`);
      }
      const again = await t.app.inject({
        url: '/',
        headers: { 'accept-language': header, 'if-none-match': etags.get(language) ?? '' },
      });
      assert.equal(again.statusCode, 304);
    }
    assert.equal(new Set(etags.values()).size, 3, 'three pages, three ETags');
    assert.equal(t.app.readCache.entries, held, 'no new copy for a language asked again');
  });

  test('the bare page files of the other languages are not served as they are', async () => {
    for (const url of ['/index.en.html', '/index.zh-TW.html']) assert.equal((await t.app.inject(url)).statusCode, 404);
  });
});

describe('inlineHashes', () => {
  test('hashes inline scripts and styles, never data blocks or external scripts', () => {
    const hashes = inlineHashes(
      '<script src="/a.js"></script><script type="application/ld+json">{"a":1}</script>' +
        '<script type="module">import "/b.js";</script><script>x()</script><script>x()</script>' +
        '<style media="print">p{}</style>',
    );
    const sha = (text: string) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
    assert.deepEqual(hashes, { scripts: [sha('import "/b.js";'), sha('x()')], styles: [sha('p{}')] });
  });
});
