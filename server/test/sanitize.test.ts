/**
 * The allowlist announcement HTML is stored with: every vector of the XSS corpus comes out
 * harmless, the markup operators use comes out as it went in, and the admin API and the command
 * line both store the cleaned HTML.
 */
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import fc from 'fast-check';
import { Parser } from 'htmlparser2';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, sep } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { BulletinDetail } from '@chat-site/contract';
import { xssVectors } from '../../e2e/fixtures/xss-vectors.js';
import { markupDepth, maxMarkupDepth, sanitizeBulletinHtml, tooDeeplyNested } from '../src/bulletins/sanitize.js';
import { demoBulletins } from '../src/demo/bulletins.js';
import { bearer, cliPath, createTestDatabase, repoRoot, startTestApp, type TestApp } from './helpers.js';

/** What the output may hold: tag name to its allowed attributes. */
const allowed: Record<string, readonly string[]> = {
  ...Object.fromEntries(
    [
      ...['h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'p', 'br', 'hr', 'blockquote', 'pre', 'code', 'strong', 'b', 'em'],
      ...['i', 'u', 's', 'del', 'ins', 'sub', 'sup', 'mark', 'small', 'span', 'div', 'ul', 'ol', 'li', 'dl'],
      ...['dt', 'dd', 'table', 'thead', 'tbody', 'tfoot', 'tr', 'caption', 'figure', 'figcaption'],
    ].map((tag) => [tag, []]),
  ),
  th: ['colspan', 'rowspan', 'scope'],
  td: ['colspan', 'rowspan'],
  a: ['href', 'title', 'rel', 'target'],
  img: ['src', 'alt', 'title', 'width', 'height'],
};

const forbiddenTags = ['script', 'svg', 'math', 'iframe', 'style', 'object', 'embed', 'base', 'form', 'meta', 'link'];
const tagPattern = /<(\/?)([a-zA-Z][a-zA-Z0-9]*)((?:\s+[^\s"'>/=]+(?:="[^"]*")?)*)\s*\/?>/g;
const attributePattern = /\s+([^\s"'>/=]+)(?:="([^"]*)")?/g;

function decodeAttribute(value: string): string {
  return value
    .replace(/&#x([0-9a-f]+);?/gi, (_, hex: string) => String.fromCodePoint(parseInt(hex, 16)))
    .replace(/&#(\d+);?/g, (_, dec: string) => String.fromCodePoint(Number(dec)))
    .replaceAll('&quot;', '"')
    .replaceAll('&lt;', '<')
    .replaceAll('&gt;', '>')
    .replaceAll('&amp;', '&');
}

/** Everything wrong with one sanitized output; empty when it is harmless. */
function problemsOf(html: string): string[] {
  const problems: string[] = [];
  for (const tag of forbiddenTags) if (html.toLowerCase().includes(`<${tag}`)) problems.push(`<${tag}`);
  for (const [, , name = '', attributes = ''] of html.matchAll(tagPattern)) {
    const tag = name.toLowerCase();
    const allowedHere = allowed[tag];
    if (allowedHere === undefined) problems.push(`tag <${tag}>`);
    for (const [, attribute = '', raw = ''] of attributes.matchAll(attributePattern)) {
      if (/^on/i.test(attribute)) problems.push(`handler ${attribute}`);
      if (allowedHere !== undefined && !allowedHere.includes(attribute)) problems.push(`<${tag} ${attribute}>`);
      // title and alt are text, not addresses: "javascript:" may appear there as words.
      if (!['href', 'src'].includes(attribute)) continue;
      // Browsers skip control characters and spaces inside a scheme; so does this reading.
      const url = [...decodeAttribute(raw)].filter((c) => c > ' ').join('');
      if (/^(javascript|vbscript|data):/i.test(url) || /^[\\/]{2}/.test(url)) problems.push(`${attribute}="${raw}"`);
    }
  }
  // Text is escaped, so every "<" left must have opened one of the tags read above.
  if (html.replace(tagPattern, '').includes('<')) problems.push('an unescaped "<" in text');
  return problems;
}

describe('the XSS corpus', () => {
  test('holds at least 150 distinct vectors', () => {
    assert.ok(xssVectors.length >= 150, `only ${xssVectors.length} vectors`);
    assert.equal(new Set(xssVectors).size, xssVectors.length, 'a vector is listed twice');
  });

  test('the check below is not blind: it finds fault with most vectors as written', () => {
    const flagged = xssVectors.filter((vector) => problemsOf(vector).length > 0).length;
    assert.ok(flagged >= xssVectors.length * 0.9, `only ${flagged} of ${xssVectors.length} flagged`);
  });

  test('every vector comes out with no script, handler, dangerous URL or forbidden element', () => {
    const failures = xssVectors.flatMap((vector) => {
      const output = sanitizeBulletinHtml(vector);
      const problems = problemsOf(output);
      return problems.length === 0 ? [] : [`${JSON.stringify(vector)}\n  -> ${output}\n  ${problems.join(', ')}`];
    });
    assert.deepEqual(failures, []);
  });

  test('all the vectors in one body come out as harmless as each alone', () => {
    assert.deepEqual(problemsOf(sanitizeBulletinHtml(xssVectors.join('\n'))), []);
  });

  test('cleaning is stable: cleaning the output again changes nothing', () => {
    for (const vector of xssVectors) {
      const once = sanitizeBulletinHtml(vector);
      assert.equal(sanitizeBulletinHtml(once), once, JSON.stringify(vector));
    }
  });
});

describe('markup operators use', () => {
  const same = (html: string) => assert.equal(sanitizeBulletinHtml(html), html);

  test('a table with a caption, header cells, colspan, rowspan and scope survives exactly', () => {
    same(
      '<table><caption>维护时间</caption><thead><tr><th colspan="2" scope="col">功能</th></tr></thead>' +
        '<tbody><tr><td rowspan="2">消息</td><td>延迟</td></tr><tr><td>上传</td></tr></tbody>' +
        '<tfoot><tr><td colspan="2">以上</td></tr></tfoot></table>',
    );
  });

  test('an image by its relative file/preview path, in a figure, survives exactly', () => {
    same(
      '<figure><img src="file/preview/0123456789abcdef-banner.png" alt="横幅" title="新版" width="600" height="200" />' +
        '<figcaption>新版本界面</figcaption></figure>',
    );
    same('<p><img src="https://img.example.com/a.png" alt="" /></p>');
  });

  test('http, https, mailto and relative links survive, and open in a new tab without an opener', () => {
    const tab = 'rel="noopener noreferrer" target="_blank"';
    for (const href of [
      'mailto:support@example.com',
      'https://example.com/a?b=1&amp;c=2',
      'http://a.example',
      '#/download',
    ]) {
      assert.equal(
        sanitizeBulletinHtml(`<a href="${href}" title="t">联系我们</a>`),
        `<a href="${href}" title="t" ${tab}>联系我们</a>`,
      );
    }
    assert.equal(
      sanitizeBulletinHtml('<a href="/x" target="_self" rel="opener">x</a>'),
      '<a href="/x" target="_blank" rel="noopener noreferrer">x</a>',
    );
  });

  test('every allowed element keeps its text; style, class, id and unknown elements go, their text stays', () => {
    same(
      '<h1>a</h1><h2>b</h2><h3>c</h3><h4>d</h4><h5>e</h5><h6>f</h6><p>g<br />h</p><hr />' +
        '<p><strong>i</strong><b>j</b><em>k</em><i>l</i><u>m</u><s>n</s><del>o</del><ins>p</ins>' +
        '<sub>q</sub><sup>r</sup><mark>s</mark><small>t</small><span>u</span></p>' +
        '<blockquote>v</blockquote><pre><code>w &lt;x&gt; &amp;</code></pre>' +
        '<ul><li>1</li></ul><ol><li>2</li></ol><dl><dt>3</dt><dd>4</dd></dl><div>5</div>',
    );
    assert.equal(
      sanitizeBulletinHtml('<section class="c" id="i" style="color:red"><font color="red">正文</font></section>'),
      '正文',
    );
  });

  test('each demo announcement comes out with the same text, tables, images and links', () => {
    const withPreviewPaths = (html: string) =>
      html.replace(/\{\{asset:([^}]+)\}\}/g, (_, name: string) => `file/preview/0123456789abcdef-${name}`);
    // The two ways the cleaned form is written differently: <img /> and the new-tab link.
    const expected = (html: string) =>
      html
        .replace(/<img ([^>]*?)\s*\/?>/g, '<img $1 />')
        .replace(/<a href="([^"]*)">/g, '<a href="$1" rel="noopener noreferrer" target="_blank">');
    for (const bulletin of demoBulletins) {
      const content = withPreviewPaths(bulletin.content);
      assert.equal(sanitizeBulletinHtml(content), expected(content), bulletin.title);
    }
  });
});

describe('stored clean', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp();
  });
  after(() => t.close());

  // The admin API refuses text holding NUL (PostgreSQL cannot store it); the CLI gets those too.
  const hostile = xssVectors.filter((vector) => !vector.includes('\u0000')).join('\n');
  const detail = async (id: number) =>
    (await t.app.inject({ method: 'GET', url: `/v1/bulletin/detail?id=${id}` })).json<BulletinDetail>();

  test('the admin API stores a hostile body cleaned, on POST and on PUT; the title stays as sent', async () => {
    const title = '<img src=x onerror=alert(1)>标题';
    const created = await t.app.inject({
      method: 'POST',
      url: '/v1/admin/bulletins',
      headers: bearer,
      payload: { title, content: `<p>正文</p>${hostile}`, topup: 1 },
    });
    assert.equal(created.statusCode, 201);
    const { id } = created.json<{ id: number }>();
    const stored = await detail(id);
    assert.equal(stored.Title, title);
    assert.equal(stored.Content, sanitizeBulletinHtml(`<p>正文</p>${hostile}`));
    assert.ok(stored.Content.startsWith('<p>正文</p>'));
    assert.deepEqual(problemsOf(stored.Content), []);

    const edited = await t.app.inject({
      method: 'PUT',
      url: `/v1/admin/bulletins/${id}`,
      headers: bearer,
      payload: { content: `${hostile}<p>改</p>` },
    });
    assert.equal(edited.statusCode, 200);
    const changed = await detail(id);
    assert.equal(changed.Content, sanitizeBulletinHtml(`${hostile}<p>改</p>`));
    assert.deepEqual(problemsOf(changed.Content), []);
  });

  test('the command line stores a hostile body cleaned, on add and on edit', async () => {
    const database = await createTestDatabase();
    const dir = mkdtempSync(join(tmpdir(), 'chat-site-sanitize-'));
    const body = join(dir, 'notice.html');
    writeFileSync(body, `<p>ok</p>${xssVectors.join('\n')}`);
    const cli = (...args: string[]) =>
      new Promise<string>((done, fail) =>
        execFile(
          process.execPath,
          ['--conditions=source', '--import', 'tsx', join(repoRoot, 'server/src/cli/main.ts'), ...args],
          { cwd: repoRoot, env: { ...process.env, DATABASE_URL: database.url } },
          (error, stdout, stderr) => (error === null ? done(stdout) : fail(new Error(stderr))),
        ),
      );
    try {
      const id = (await cli('bulletins', 'add', '--title', 'CLI', '--content-file', body)).trim();
      const added = JSON.parse(await cli('bulletins', 'show', id, '--json')) as { content: string };
      assert.equal(added.content, sanitizeBulletinHtml(`<p>ok</p>${xssVectors.join('\n')}`));
      assert.ok(added.content.startsWith('<p>ok</p>'));
      assert.deepEqual(problemsOf(added.content), []);
      await cli('bulletins', 'edit', id, '--content', '<p onclick="alert(1)">改</p><script>alert(1)</script>');
      const edited = JSON.parse(await cli('bulletins', 'show', id, '--json')) as { content: string };
      assert.equal(edited.content, '<p>改</p>');
    } finally {
      await database.drop();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('markup nested too deep to clean quickly', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp();
  });
  after(() => t.close());

  // HTML parsers take time growing with the square of the depth: 330,000 unclosed <b> took
  // sanitize-html about 49 s. The depth is read in one pass, and the write is refused.
  const deep = `<p>正文</p>${'<b>'.repeat(330_000)}尾`;

  test('the depth is read in one pass: unclosed tags count, void and self-closing ones do not', () => {
    assert.equal(markupDepth('<div><p>a<b>b</b><br><img src=x /></p><!-- <b><b><b> --></div>'), 3);
    // A <p> closes the <p> before it, an <li> the <li>; the parser keeps the <li> inside the <p>.
    assert.equal(markupDepth('<p>one<p>two<li>three<li>four'), 2);
    assert.equal(markupDepth(`${'<span>'.repeat(300)}x${'</span>'.repeat(300)}`), 300);
    assert.equal(markupDepth('<b'.repeat(100_000)), 0);
    assert.equal(markupDepth(deep), 330_000);
    assert.equal(tooDeeplyNested(`${'<div>'.repeat(maxMarkupDepth)}x`), undefined);
    assert.match(tooDeeplyNested(`${'<div>'.repeat(maxMarkupDepth + 1)}x`) ?? '', /257 levels deep; at most 256/);
  });

  test('the depth is what sanitize-html’s parser builds, for the tags it does not close by itself too', () => {
    for (const tag of ['caption', 'thead', 'colgroup', 'rb']) {
      assert.equal(markupDepth(`<${tag}>`.repeat(20_000)), 20_000, tag);
    }
    assert.equal(markupDepth('<span/>'.repeat(300)), 300, 'a slash does not close an HTML element');
    assert.equal(markupDepth(`<svg>${'<path/>'.repeat(300)}</svg>`), 2, 'it does inside SVG');
    assert.equal(markupDepth('<span title="></span>">'.repeat(300)), 300, 'a tag inside an attribute is text');
    const parts = [
      '<p>',
      '</p>',
      '<li>',
      '<td>',
      '<tr>',
      '<caption>',
      '<thead>',
      '<tbody>',
      '<b>',
      '</b>',
      '<i>',
      '</div>',
    ];
    const more = [
      '<div>',
      '<svg>',
      '</svg>',
      '<path/>',
      '<span/>',
      '<br>',
      '</br>',
      '<!-- <b> -->',
      '<a title="<b>">',
      '<h2>',
      '<h3>',
      '</h2>',
      'x',
    ];
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...parts, ...more), { maxLength: 60 }), (pieces) => {
        const html = pieces.join('');
        assert.equal(markupDepth(html), parserDepth(html), html);
      }),
      { numRuns: 2000 },
    );
  });

  test('the markup counter reads with the very tokenizer sanitize-html parses with', () => {
    const require = createRequire(import.meta.url);
    const version = (from: string) => {
      const entry = createRequire(require.resolve(from)).resolve('htmlparser2');
      const root = entry.slice(0, entry.lastIndexOf(`${sep}dist${sep}`));
      return (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string }).version;
    };
    assert.equal(version('../src/bulletins/sanitize.ts'), version('sanitize-html'));
  });

  test('20,000 nested <caption> are refused, not stored', async () => {
    const posted = await t.app.inject({
      method: 'POST',
      url: '/v1/admin/bulletins',
      headers: bearer,
      payload: { title: '表题', content: '<caption>'.repeat(20_000) },
    });
    assert.equal(posted.statusCode, 400);
    assert.match(posted.json<{ msg: string }>().msg, /20000 levels deep/);
  });

  test('the admin API refuses it with a 400 that says why, on POST and on PUT, and stores nothing', async () => {
    const posted = await t.app.inject({
      method: 'POST',
      url: '/v1/admin/bulletins',
      headers: bearer,
      payload: { title: '很深', content: deep },
    });
    assert.equal(posted.statusCode, 400);
    assert.match(posted.json<{ msg: string }>().msg, /330000 levels deep/);
    const page = await t.app.inject('/v1/bulletin/page');
    assert.equal(page.json<{ count: number }>().count, 0);

    const created = await t.app.inject({
      method: 'POST',
      url: '/v1/admin/bulletins',
      headers: bearer,
      payload: { title: '正常', content: '<p>原文</p>' },
    });
    const { id } = created.json<{ id: number }>();
    const put = await t.app.inject({
      method: 'PUT',
      url: `/v1/admin/bulletins/${id}`,
      headers: bearer,
      payload: { content: deep },
    });
    assert.equal(put.statusCode, 400);
    const kept = await t.app.inject(`/v1/bulletin/detail?id=${id}`);
    assert.equal(kept.json<BulletinDetail>().Content, '<p>原文</p>');
  });

  test('a row written around the checks is cleaned to its text when read for a feed', () => {
    const cleaned = sanitizeBulletinHtml(`<p>正文</p>${'<i>'.repeat(300)}尾<script>x</script>`);
    assert.equal(cleaned, '正文尾x');
  });

  test('the command line refuses it with exit 2 and a message', async () => {
    const database = await createTestDatabase();
    const dir = mkdtempSync(join(tmpdir(), 'chat-site-deep-'));
    const body = join(dir, 'deep.html');
    writeFileSync(body, deep);
    try {
      const result = await new Promise<{ code: number | null; stderr: string }>((done) =>
        execFile(
          process.execPath,
          [cliPath, 'bulletins', 'add', '--title', 'x', '--content-file', body],
          { cwd: repoRoot, env: { ...process.env, DATABASE_URL: database.url } },
          (error, _stdout, stderr) => done({ code: error === null ? 0 : (error.code as number), stderr }),
        ),
      );
      assert.equal(result.code, 2);
      assert.match(result.stderr, /330000 levels deep/);
    } finally {
      await database.drop();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

/** How deep htmlparser2's own Parser nests `html`: the most elements its stack of open elements
 * (void ones never go there) ever held. What markupDepth must agree with. */
function parserDepth(html: string): number {
  let deepest = 0;
  const parser: Parser = new Parser({
    onopentag: () => {
      deepest = Math.max(deepest, (parser as unknown as { stack: string[] }).stack.length);
    },
  });
  parser.write(html);
  parser.end();
  return deepest;
}
