// The editor's form values and the body a save sends (docs/console.md#writing-an-announcement).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { AdminBulletin } from '../src/features/bulletins/api';
import {
  draftFor,
  endTimeProblem,
  savedNotice,
  valuesAfterSave,
  valuesOf,
  type EditorValues,
} from '../src/features/bulletins/editor-form';

const same = (html: string) => html;
const now = '2026-11-26 10:00:00';

const published: AdminBulletin = {
  id: 7,
  title: '维护通知',
  content: '<p>今晚维护</p>',
  topup: 1,
  status: 'published',
  publish_at: '2026-11-25 09:30:00',
  updated_at: '2026-11-25 09:30:00',
  version: 2,
  unpublish_at: '2026-12-01 00:00:00',
  unpin_at: null,
  title_tw: '維護通知',
  content_tw: '<p>今晚維護</p>',
  tw_by_hand: 0,
  title_en: '',
  content_en: '',
};

const noOtherLanguages = { titleTw: '', htmlTw: '', twByHand: false, reconvert: false, titleEn: '', htmlEn: '' };
const blank: EditorValues = {
  title: '',
  html: '',
  pinned: false,
  when: '',
  unpublishAt: '',
  unpinAt: '',
  ...noOtherLanguages,
};

describe('valuesOf', () => {
  test('a new announcement starts empty', () => {
    assert.deepEqual(valuesOf(undefined, same), blank);
  });

  test('an announcement fills every field, times as datetime-local values', () => {
    assert.deepEqual(
      valuesOf(published, (html) => `[${html}]`),
      {
        title: '维护通知',
        html: '[<p>今晚维护</p>]',
        pinned: true,
        when: '2026-11-25T09:30',
        unpublishAt: '2026-12-01T00:00',
        unpinAt: '',
        ...noOtherLanguages,
        titleTw: '維護通知',
        htmlTw: '[<p>今晚維護</p>]',
        htmlEn: '[]',
      },
    );
  });

  test('a draft shows no publication time', () => {
    assert.equal(valuesOf({ ...published, status: 'draft' }, same).when, '');
  });
});

describe('draftFor', () => {
  const values: EditorValues = { ...blank, title: '  标题  ', html: '<p>正文</p>' };

  test('发布 publishes now, with the title trimmed and the body as stored', () => {
    assert.deepEqual(
      draftFor(values, 'publish', now, (html) => html.toUpperCase()),
      {
        draft: {
          title: '标题',
          content: '<P>正文</P>',
          topup: 0,
          state: 'published',
          publish_at: null,
          unpublish_at: null,
          unpin_at: null,
          title_en: '',
          content_en: '',
        },
      },
    );
  });

  test('the traditional version is sent once written by hand, 重新转换 as a flag; English always', () => {
    const languages = (extra: Partial<EditorValues>) => {
      const outcome = draftFor({ ...values, ...extra }, 'publish', now, same);
      assert.ok('draft' in outcome);
      const { title_tw, content_tw, reconvert, title_en, content_en } = outcome.draft;
      return { title_tw, content_tw, reconvert, title_en, content_en };
    };
    const made = { titleTw: '標題', htmlTw: '<p>正文</p>' };
    assert.deepEqual(languages(made), {
      title_tw: undefined,
      content_tw: undefined,
      reconvert: undefined,
      title_en: '',
      content_en: '',
    });
    assert.deepEqual(languages({ ...made, twByHand: true, titleEn: ' Title ', htmlEn: '<p>Body</p>' }), {
      title_tw: '標題',
      content_tw: '<p>正文</p>',
      reconvert: undefined,
      title_en: 'Title',
      content_en: '<p>Body</p>',
    });
    assert.equal(languages({ ...made, reconvert: true }).reconvert, 1);
  });

  test('发布 ignores the time in the field; 保存草稿 and 保存修改 keep it', () => {
    const timed = { ...values, when: '2026-11-27T08:00' };
    const publishAt = (action: 'publish' | 'draft' | 'update') => {
      const outcome = draftFor(timed, action, now, same);
      return 'draft' in outcome ? outcome.draft.publish_at : outcome.problem.text;
    };
    assert.equal(publishAt('publish'), null);
    assert.equal(publishAt('draft'), '2026-11-27 08:00:00');
    assert.equal(publishAt('update'), '2026-11-27 08:00:00');
    const draft = draftFor(timed, 'draft', now, same);
    assert.ok('draft' in draft && draft.draft.state === 'draft');
  });

  test('a title of spaces is refused under the title', () => {
    assert.deepEqual(draftFor({ ...values, title: '   ' }, 'draft', now, same), {
      problem: { field: 'title', text: '请填写标题' },
    });
  });

  test('定时发布 needs a time after now', () => {
    const problem = { problem: { field: 'when', text: '定时发布需要一个将来的发布时间' } };
    assert.deepEqual(draftFor(values, 'schedule', now, same), problem);
    assert.deepEqual(draftFor({ ...values, when: '2026-11-26T10:00' }, 'schedule', now, same), problem);
    const later = draftFor({ ...values, when: '2026-11-26T10:01' }, 'schedule', now, same);
    assert.ok('draft' in later && later.draft.publish_at === '2026-11-26 10:01:00');
  });

  test('置顶截止 is not sent without 置顶', () => {
    const outcome = draftFor({ ...values, unpinAt: '2026-11-28T00:00' }, 'publish', now, same);
    assert.ok('draft' in outcome);
    assert.equal(outcome.draft.unpin_at, null);
    const pinned = draftFor({ ...values, pinned: true, unpinAt: '2026-11-28T00:00' }, 'publish', now, same);
    assert.ok('draft' in pinned);
    assert.equal(pinned.draft.topup, 1);
    assert.equal(pinned.draft.unpin_at, '2026-11-28 00:00:00');
  });

  test('an end time before now or the publication is refused under its field', () => {
    assert.deepEqual(draftFor({ ...values, unpublishAt: '2026-11-26T09:00' }, 'publish', now, same), {
      problem: { field: 'unpublishAt', text: '下线时间需要晚于现在' },
    });
    const scheduled = { ...values, pinned: true, when: '2026-11-27T08:00', unpinAt: '2026-11-27T07:00' };
    assert.deepEqual(draftFor(scheduled, 'schedule', now, same), {
      problem: { field: 'unpinAt', text: '置顶截止时间需要晚于发布时间' },
    });
  });
});

test('endTimeProblem checks 下线时间 first, and passes empty ones', () => {
  assert.equal(endTimeProblem({ unpublishAt: '', unpinAt: '' }, now, now), undefined);
  assert.deepEqual(endTimeProblem({ unpublishAt: '2026-11-26T09:00', unpinAt: '2026-11-26T09:00' }, now, now), {
    field: 'unpublish',
    text: '下线时间需要晚于现在',
  });
});

test("after a save the times are the server's, the text stays as typed", () => {
  const typed: EditorValues = { ...blank, title: '打了一半', html: '<p>x</p>', when: '', unpinAt: '2026-11-30T00:00' };
  assert.deepEqual(valuesAfterSave(typed, published), {
    ...typed,
    when: '2026-11-25T09:30',
    unpublishAt: '2026-12-01T00:00',
    unpinAt: '',
    titleTw: '維護通知',
    htmlTw: '<p>今晚維護</p>',
  });
  assert.equal(valuesAfterSave(typed, { ...published, status: 'draft' }).when, '');
  // A made traditional version shows what the server made; one written by hand stays as typed.
  assert.equal(valuesAfterSave(typed, published).titleTw, '維護通知');
  const byHand = { ...typed, twByHand: true, titleTw: '手寫' };
  assert.equal(valuesAfterSave(byHand, published).titleTw, '手寫');
});

test('savedNotice says what the pressed button did', () => {
  assert.equal(savedNotice('draft', published, false), '草稿已保存');
  assert.equal(savedNotice('draft', published, true), '已撤回为草稿');
  assert.equal(savedNotice('publish', published, false), '已发布');
  assert.equal(savedNotice('schedule', published, false), '已定时，将于 2026-11-25 09:30 发布');
  assert.equal(savedNotice('update', published, true), '修改已保存');
});
