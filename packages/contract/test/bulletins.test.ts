import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ApiFailure, WrongShapeError, readBulletinDetail, readBulletinList, type Bulletin } from '../src/index.js';

const canonicalItem = { id: 12, title: 'Hello', content: '<p>Hi</p>', topup: 1, created_at: '2024-05-01 10:00:00' };
const expected: Bulletin = {
  id: '12',
  title: 'Hello',
  content: '<p>Hi</p>',
  pinned: true,
  createdAt: '2024-05-01 10:00:00',
  language: null,
};

describe('readBulletinList shapes', () => {
  test('the canonical {count, list}', () => {
    assert.deepEqual(readBulletinList({ count: 1, list: [canonicalItem] }), [expected]);
  });

  test('a bare array', () => {
    assert.deepEqual(readBulletinList([canonicalItem]), [expected]);
  });

  test('{data: {list}} in a code envelope', () => {
    assert.deepEqual(readBulletinList({ code: 0, msg: 'ok', data: { count: 1, list: [canonicalItem] } }), [expected]);
  });

  test('{data: [...]}', () => {
    assert.deepEqual(readBulletinList({ errCode: 0, data: [canonicalItem] }), [expected]);
  });

  test('an empty list, and a Go nil list sent as null', () => {
    assert.deepEqual(readBulletinList({ count: 0, list: [] }), []);
    assert.deepEqual(readBulletinList({ count: 0, list: null }), []);
  });

  test('a failed envelope throws ApiFailure', () => {
    assert.throws(() => readBulletinList({ code: 500, msg: 'db down', data: null }), ApiFailure);
  });

  for (const [name, body] of [
    ['{}', {}],
    ['"text"', 'text'],
    ['{list: "x"}', { list: 'x' }],
    ['null', null],
    ['a number', 42],
    ['{data: null}', { code: 0, data: null }],
    ['{data: {items: []}}', { data: { items: [] } }],
  ] as const) {
    test(`the wrong shape ${name} throws WrongShapeError`, () => {
      assert.throws(() => readBulletinList(body), WrongShapeError);
    });
  }
});

describe('readBulletinList fields', () => {
  test('PascalCase fields', () => {
    const item = { Id: 12, Title: 'Hello', Content: '<p>Hi</p>', Topup: 1, CreatedAt: '2024-05-01 10:00:00' };
    assert.deepEqual(readBulletinList([item]), [expected]);
  });

  test('camelCase createdAt', () => {
    const item = { id: 12, title: 'Hello', content: '<p>Hi</p>', topup: 1, createdAt: '2024-05-01 10:00:00' };
    assert.deepEqual(readBulletinList([item]), [expected]);
  });

  test('a string id, a "1" flag and a unix-seconds time', () => {
    const item = { id: '12', title: 'Hello', content: '<p>Hi</p>', topup: '1', created_at: 1714528800 };
    assert.deepEqual(readBulletinList([item]), [expected]);
  });

  test('a true flag and an ISO time', () => {
    const item = { ...canonicalItem, topup: true, created_at: '2024-05-01T02:00:00Z' };
    assert.deepEqual(readBulletinList([item]), [expected]);
  });

  test('topup 0 or missing is not pinned; missing text fields read as empty', () => {
    assert.deepEqual(readBulletinList([{ id: 3, topup: 0 }, { id: 4 }]), [
      { id: '3', title: '', content: '', pinned: false, createdAt: '', language: null },
      { id: '4', title: '', content: '', pinned: false, createdAt: '', language: null },
    ]);
  });

  test('items that are not objects or have no id are skipped', () => {
    const list = [null, 'x', 5, [canonicalItem], { title: 'no id' }, { id: '' }, canonicalItem];
    assert.deepEqual(readBulletinList({ list }), [expected]);
  });

  test('the language the server says it answered in, in either spelling; none from other builds', () => {
    assert.equal(readBulletinList([{ ...canonicalItem, lang: 'zh-TW' }])[0]?.language, 'zh-TW');
    assert.equal(readBulletinDetail({ Id: 1, Lang: 'en' })?.language, 'en');
    assert.equal(readBulletinList([{ ...canonicalItem, lang: 'fr' }])[0]?.language, null);
    assert.equal(readBulletinList([{ ...canonicalItem, lang: 7 }])[0]?.language, null);
  });

  test('content keeps its whitespace', () => {
    assert.equal(readBulletinList([{ id: 1, content: '  <p>x</p>\n' }])[0]?.content, '  <p>x</p>\n');
  });

  test('an explicit time zone for converted timestamps', () => {
    assert.equal(readBulletinList([{ id: 1, created_at: 1714528800 }], 'UTC')[0]?.createdAt, '2024-05-01 02:00:00');
  });
});

describe('readBulletinDetail', () => {
  const detail = { Id: 12, Title: 'Hello', Content: '<p>Hi</p>', CreatedAt: '2024-05-01 10:00:00' };
  const unpinned: Bulletin = { ...expected, pinned: false };

  test('the canonical bare PascalCase detail', () => {
    assert.deepEqual(readBulletinDetail(detail), unpinned);
  });

  test('a detail under data', () => {
    assert.deepEqual(readBulletinDetail({ code: 0, msg: '', data: detail }), unpinned);
  });

  test('snake_case fields with topup', () => {
    assert.deepEqual(readBulletinDetail({ data: canonicalItem }), expected);
  });

  test('null data or no id gives undefined', () => {
    assert.equal(readBulletinDetail({ code: 0, data: null }), undefined);
    assert.equal(readBulletinDetail({ Title: 'x' }), undefined);
    assert.equal(readBulletinDetail(null), undefined);
    assert.equal(readBulletinDetail('text'), undefined);
  });

  test('a failed envelope throws ApiFailure', () => {
    assert.throws(() => readBulletinDetail({ errCode: 1004, errMsg: 'not found' }), ApiFailure);
  });
});
