import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isSavedBulletin } from '../src/features/announcements/api/saved-bulletin';

const bulletin = {
  id: '7',
  title: '维护通知',
  content: '<p>正文</p>',
  createdAt: '2026-05-01 10:00:00',
  pinned: false,
};

test('a saved announcement with every field a screen reads is accepted', () => {
  assert.equal(isSavedBulletin(bulletin), true);
  assert.equal(isSavedBulletin({ ...bulletin, pinned: true, extra: 'kept' }), true);
});

test('a saved announcement missing a field, or with one of the wrong type, is refused', () => {
  for (const name of Object.keys(bulletin)) {
    const rest = Object.fromEntries(Object.entries(bulletin).filter(([key]) => key !== name));
    assert.equal(isSavedBulletin(rest), false, `without ${name}`);
  }
  assert.equal(isSavedBulletin({ ...bulletin, id: 7 }), false);
  assert.equal(isSavedBulletin({ ...bulletin, pinned: 'false' }), false);
  assert.equal(isSavedBulletin({ ...bulletin, createdAt: null }), false);
});

test('anything that is not an object is refused', () => {
  for (const value of [null, undefined, 'text', 7, true]) assert.equal(isSavedBulletin(value), false, String(value));
});
