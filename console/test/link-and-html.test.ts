// What the editor keeps in a link, and when its body counts as empty (docs/console.md#writing-an-announcement).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isEmptyHtml } from '../src/features/bulletins/html-paths';
import { linkProblem } from '../src/features/bulletins/link-dialog';

test('http, https, mailto and the site own paths are links; empty removes the link', () => {
  for (const href of ['https://example.com/a?b=1', 'http://example.com', 'mailto:ops@example.com', '#/download', '']) {
    assert.equal(linkProblem(href), undefined, href);
  }
});

test('other schemes and half addresses are refused, each with its reason', () => {
  assert.equal(linkProblem('javascript:alert(1)'), '链接只能是 http、https 或 mailto 地址');
  assert.equal(linkProblem('ftp://example.com'), '链接只能是 http、https 或 mailto 地址');
  assert.equal(linkProblem('example.com'), '请输入完整的地址，例如 https://example.com');
});

test('a body of empty paragraphs is empty; any text or picture is not', () => {
  assert.equal(isEmptyHtml(''), true);
  assert.equal(isEmptyHtml('<p></p>'), true);
  assert.equal(isEmptyHtml('<p></p><p> </p>\n'), true);
  assert.equal(isEmptyHtml('<p>字</p>'), false);
  assert.equal(isEmptyHtml('<p><img src="/v1/file/preview/a.png"></p>'), false);
});
