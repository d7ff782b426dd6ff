// The conflict dialog's parts and choices (docs/console.md#two-operators-one-announcement).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { AdminBulletin, BulletinDraft } from '../src/features/bulletins/api';
import { conflictWords, differingParts, mergeDraft } from '../src/features/bulletins/conflict-fields';

const current: AdminBulletin = {
  id: 1,
  title: '甲的标题',
  content: '<p>甲</p>',
  topup: 1,
  status: 'published',
  publish_at: '2026-11-26 10:00:00',
  updated_at: '2026-11-26 10:05:00',
  version: 3,
  unpublish_at: null,
  unpin_at: null,
  title_tw: '甲的標題',
  content_tw: '<p>甲</p>',
  tw_by_hand: 0,
  title_en: '',
  content_en: '',
};
const mine: BulletinDraft = { title: '乙的标题', content: '<p>乙</p>', topup: 0, state: 'published', publish_at: null };

test('the parts that differ, and a draft of theirs and mine per part', () => {
  assert.deepEqual(differingParts(mine, current), ['title', 'content', 'settings']);
  assert.deepEqual(differingParts({ ...mine, title: '甲的标题', topup: 1 }, current), ['content']);
  assert.deepEqual(mergeDraft(mine, current, { title: 'theirs', settings: 'theirs' }), {
    title: '甲的标题',
    content: '<p>乙</p>',
    topup: 1,
    state: 'published',
    publish_at: '2026-11-26 10:00:00',
    unpublish_at: null,
    unpin_at: null,
  });
  // An end time set on one side only is a difference of the settings.
  const ending = {
    ...mine,
    title: '甲的标题',
    content: '<p>甲</p>',
    topup: 1 as const,
    unpin_at: '2026-12-01 00:00:00',
  };
  assert.deepEqual(differingParts(ending, current), ['settings']);
  assert.equal(mergeDraft(ending, current, {}).unpin_at, '2026-12-01 00:00:00');
});

test('another operator, the token, or the same account in another tab', () => {
  assert.equal(conflictWords('alice', 'bob', '11-26 10:05').title, '保存冲突：这条公告已被 alice 修改');
  assert.equal(conflictWords('admin-token', 'bob', '11-26 10:05').title, '保存冲突：这条公告已被管理令牌修改');
  const same = conflictWords('bob', 'bob', '11-26 10:05');
  assert.equal(same.title, '保存冲突：这条公告已在另一个标签页或窗口中保存过');
  assert.doesNotMatch(same.text, /他人/);
});

test('the traditional and English versions are parts of their own, chosen like the others', () => {
  const saved = {
    ...current,
    title_tw: '甲的手寫標題',
    tw_by_hand: 1 as const,
    title_en: 'Theirs',
    content_en: '<p>A</p>',
  };
  const same = { ...mine, title: saved.title, content: saved.content, topup: saved.topup };
  // Left to the converter, the draft replaces nothing written by hand; its English is the saved one.
  assert.deepEqual(differingParts({ ...same, title_en: 'Theirs', content_en: '<p>A</p>' }, saved), []);
  const mineToo = {
    ...same,
    title_tw: '乙的手寫標題',
    content_tw: '<p>甲</p>',
    title_en: 'Mine',
    content_en: '<p>B</p>',
  };
  assert.deepEqual(differingParts(mineToo, saved), ['traditional', 'english']);
  assert.deepEqual(differingParts({ ...same, reconvert: 1, title_en: 'Theirs', content_en: '<p>A</p>' }, saved), [
    'traditional',
  ]);
  const theirs = mergeDraft(mineToo, saved, { traditional: 'theirs', english: 'theirs' });
  assert.deepEqual([theirs.title_tw, theirs.title_en, theirs.content_en], [undefined, 'Theirs', '<p>A</p>']);
  const kept = mergeDraft(mineToo, saved, {});
  assert.deepEqual([kept.title_tw, kept.content_tw, kept.title_en], ['乙的手寫標題', '<p>甲</p>', 'Mine']);
});
