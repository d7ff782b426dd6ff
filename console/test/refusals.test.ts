// The console's Chinese for the admin API's refusals (docs/console.md#error-codes): every code
// the server can send, fields as the forms label them, lines counted from 1, sizes in KB/MB.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { fieldLabel } from '../src/lib/field-labels';
import { refusalText, sizeText } from '../src/lib/refusals';

describe('field paths', () => {
  test('a region address is a line of its list, counted from 1', () => {
    assert.equal(fieldLabel('api_addrs[1].addr'), 'API 地址第 2 行');
    assert.equal(fieldLabel('allocator_addrs[0].addr'), '分配器地址第 1 行');
    assert.equal(fieldLabel('api_addrs'), 'API 地址');
  });

  test('plain fields by their form label; other lists by their place', () => {
    assert.equal(fieldLabel('title'), '标题');
    assert.equal(fieldLabel('next'), '新密码');
    assert.equal(fieldLabel('version'), '版本号');
    assert.equal(fieldLabel('common_cdn_bucket_url'), 'CDN 地址');
    assert.equal(fieldLabel('api_addrs[4]'), 'API 地址第 5 行');
  });
});

describe('sentences', () => {
  test('a bad API address', () => {
    assert.equal(
      refusalText({ status: 400, code: 'invalid_field', field: 'api_addrs[1].addr' }),
      'API 地址第 2 行填写有误，请检查后重试',
    );
    assert.equal(
      refusalText({ status: 400, code: 'duplicate', field: 'allocator_addrs[3].addr' }),
      '分配器地址第 4 行与前面的地址重复',
    );
  });

  test('limits: characters for text, entries for a list', () => {
    assert.equal(refusalText({ status: 400, code: 'too_short', field: 'next', limit: 10 }), '新密码至少要有 10 个字符');
    assert.equal(
      refusalText({ status: 400, code: 'too_short', field: 'api_addrs', limit: 1 }),
      'API 地址至少要有 1 项',
    );
    assert.equal(refusalText({ status: 400, code: 'too_long', field: 'title', limit: 200 }), '标题最多 200 个字符');
  });

  test('a wrong current password', () => {
    assert.equal(refusalText({ status: 400, code: 'wrong_password', field: 'current' }), '当前密码不正确');
  });

  test('a file too large, in MB and KB, never in bytes', () => {
    assert.equal(
      refusalText({ status: 413, code: 'too_large', limit: 5 * 1024 * 1024, size: 7_340_032 }),
      '文件太大了（7 MB），上限为 5 MB',
    );
    assert.equal(refusalText({ status: 413, code: 'too_large', limit: 2048 }), '文件太大了，上限为 2 KB');
    assert.equal(sizeText(1536), '1.5 KB');
    assert.equal(sizeText(300), '300 字节');
  });

  test('a payload refused: its place in the list, the file it found', () => {
    assert.equal(fieldLabel('payloads[1].url'), '第 2 个更新包的地址');
    assert.equal(fieldLabel('payloads/1/url'), '第 2 个更新包的地址');
    assert.equal(
      refusalText({ status: 400, code: 'payload_wrong_kind', field: 'payloads[0].file_key', found: 'a.dmg' }),
      '文件 a.dmg 不是所选类型的更新包：请检查类型和文件',
    );
    assert.equal(
      refusalText({ status: 400, code: 'payload_repeated', field: 'payloads/2/role' }),
      '同一类型、同一架构的更新包只能有一个',
    );
    assert.equal(
      refusalText({ status: 400, code: 'payload_wrong_platform', field: 'payloads/0/role' }),
      '只有电脑端的版本可以带更新包',
    );
  });

  test('an unknown code, or none, is still Chinese and names the status', () => {
    assert.equal(refusalText({ status: 418, code: 'teapot' }), '操作没有成功（服务器返回 418），请稍后重试');
    assert.equal(refusalText({ status: 502 }), '操作没有成功（服务器返回 502），请稍后重试');
  });

  test('every code the server documents has its own sentence, in Chinese', () => {
    const source = readFileSync(new URL('../../server/src/lib/error-codes.ts', import.meta.url), 'utf8');
    const block = /export const errorCodes = \{([\s\S]*?)\} as const;/.exec(source)?.[1] ?? '';
    const codes = [...block.matchAll(/^\s+(\w+):/gm)].map((match) => match[1] ?? '');
    assert.ok(codes.length > 20, 'the list of codes was read');
    for (const code of codes) {
      const text = refusalText({ status: 400, code, field: 'title', limit: 5, size: 9 });
      assert.doesNotMatch(text, /服务器返回/, code);
      assert.doesNotMatch(text, /[a-z]{3,}/, `${code}: ${text}`);
    }
  });
});
