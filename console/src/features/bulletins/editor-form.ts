/**
 * The editor's form: its values as the fields hold them, from an announcement as the admin API
 * sends it, and to the body a save sends (docs/console.md#writing-an-announcement). No React and
 * no DOM here: the HTML conversions (html-paths.ts) come in as arguments.
 */
import { bulletinTitleMaxLength } from '@chat-site/contract';
import { fromFieldTime, toFieldTime } from '../../lib/wire-time';
import type { AdminBulletin, BulletinDraft } from './api';

/** What the editor's buttons do: 保存草稿 (or 撤回为草稿), 发布, 定时发布, 保存修改. */
export type Action = 'draft' | 'publish' | 'schedule' | 'update';

export interface EditorValues {
  title: string;
  /** The body as the editor holds it (toEditorHtml's form). */
  html: string;
  pinned: boolean;
  /** The datetime-local field's value: "" for "at once". */
  when: string;
  /** 下线时间 and 置顶截止, the same way ("" for never). */
  unpublishAt: string;
  unpinAt: string;
  /** The traditional version (docs/console.md#other-languages): the server's, made from the
   * simplified, until the operator edits it (twByHand); reconvert asks the next save for 重新转换. */
  titleTw: string;
  htmlTw: string;
  twByHand: boolean;
  reconvert: boolean;
  /** The English version, written by hand; an empty title: none. */
  titleEn: string;
  htmlEn: string;
}

/** The fields a problem is shown under; none: under the buttons. */
export type ProblemField = 'title' | 'when' | 'unpublishAt' | 'unpinAt';

export interface Problem {
  field?: ProblemField;
  text: string;
}

/** The two end times of the editor, as datetime-local values ("" for never). */
export interface EndTimes {
  unpublishAt: string;
  unpinAt: string;
}

export type EndTimeField = 'unpublish' | 'unpin';

/** What is wrong with the end times, checked before a save (the server checks again):
 * each must come after now and after the publication (docs/console.md#stopping-by-itself). */
export function endTimeProblem(
  times: EndTimes,
  publishAt: string,
  now: string,
): { field: EndTimeField; text: string } | undefined {
  const checks: [EndTimeField, string, string][] = [
    ['unpublish', times.unpublishAt, '下线时间'],
    ['unpin', times.unpinAt, '置顶截止时间'],
  ];
  for (const [field, value, name] of checks) {
    if (value === '') continue;
    const at = fromFieldTime(value);
    if (at <= now) return { field, text: `${name}需要晚于现在` };
    if (at <= publishAt) return { field, text: `${name}需要晚于发布时间` };
  }
  return undefined;
}

const problemFields: Record<EndTimeField, ProblemField> = { unpublish: 'unpublishAt', unpin: 'unpinAt' };

const fieldTime = (wire: string | null | undefined) => (wire == null ? '' : toFieldTime(wire));

/** The fields for an announcement, or empty ones for a new announcement. A draft shows no
 * publication time: its stored one is only when it was made. */
export function valuesOf(bulletin: AdminBulletin | undefined, toEditor: (stored: string) => string): EditorValues {
  return {
    title: bulletin?.title ?? '',
    html: toEditor(bulletin?.content ?? ''),
    pinned: bulletin?.topup === 1,
    when: bulletin === undefined || bulletin.status === 'draft' ? '' : toFieldTime(bulletin.publish_at),
    unpublishAt: fieldTime(bulletin?.unpublish_at),
    unpinAt: fieldTime(bulletin?.unpin_at),
    ...languageValues(bulletin, toEditor),
    titleEn: bulletin?.title_en ?? '',
    htmlEn: toEditor(bulletin?.content_en ?? ''),
  };
}

/** The traditional version as the server holds it. */
const languageValues = (bulletin: AdminBulletin | undefined, toEditor: (stored: string) => string) => ({
  titleTw: bulletin?.title_tw ?? '',
  htmlTw: toEditor(bulletin?.content_tw ?? ''),
  twByHand: bulletin?.tw_by_hand === 1,
  reconvert: false,
});

/** After a save the times show what the server kept (a publication "now" became a time); the
 * title and body stay as typed, so nothing typed during the save is lost. */
export function valuesAfterSave(
  values: EditorValues,
  saved: AdminBulletin,
  toEditor: (stored: string) => string = (html) => html,
): EditorValues {
  return {
    ...values,
    // A made traditional version is the server's to show: it followed the simplified text.
    ...(!values.twByHand && languageValues(saved, toEditor)),
    when: saved.status === 'draft' ? values.when : toFieldTime(saved.publish_at),
    unpublishAt: fieldTime(saved.unpublish_at),
    unpinAt: fieldTime(saved.unpin_at),
  };
}

/** The body of a save for `action`, or what is wrong first. `now` is the server's wall clock
 * (wire form); `toStored` turns the editor's HTML into the stored form. */
export function draftFor(
  values: EditorValues,
  action: Action,
  now: string,
  toStored: (html: string) => string,
  saved?: AdminBulletin,
): { draft: BulletinDraft } | { problem: Problem } {
  // A field holds minutes: a time left as it was is sent as stored, seconds and all, so a save
  // that did not touch it does not move it (nor the audit say it changed).
  const wire = (value: string, stored: string | null | undefined) =>
    stored != null && value === toFieldTime(stored) ? stored : fromFieldTime(value);
  const title = values.title.trim();
  if (title === '') return { problem: { field: 'title', text: '请填写标题' } };
  const tooLong = titleLengthProblem(title);
  if (tooLong !== undefined) return { problem: { field: 'title', text: tooLong } };
  const shownPublishAt = saved === undefined || saved.status === 'draft' ? undefined : saved.publish_at;
  const when = values.when === '' ? null : wire(values.when, shownPublishAt);
  if (action === 'schedule' && (when === null || when <= now)) {
    return { problem: { field: 'when', text: '定时发布需要一个将来的发布时间' } };
  }
  // 发布 publishes now; the others keep the time in the field (none: now, for a draft: none).
  const publishAt = action === 'publish' ? null : when;
  // 置顶截止 means nothing without 置顶: it is not sent.
  const ends = { unpublishAt: values.unpublishAt, unpinAt: values.pinned ? values.unpinAt : '' };
  const endProblem = endTimeProblem(ends, publishAt ?? now, now);
  if (endProblem !== undefined) return { problem: { field: problemFields[endProblem.field], text: endProblem.text } };
  const end = (value: string, stored: string | null | undefined) => (value === '' ? null : wire(value, stored));
  return {
    draft: {
      title,
      content: toStored(values.html),
      topup: values.pinned ? 1 : 0,
      state: action === 'draft' ? 'draft' : 'published',
      publish_at: publishAt,
      unpublish_at: end(ends.unpublishAt, saved?.unpublish_at),
      unpin_at: end(ends.unpinAt, saved?.unpin_at),
      ...languageDraft(values, toStored),
    },
  };
}

/** What a save says of the other languages: the traditional version only once the operator wrote
 * it (or 重新转换), the English always, so that emptying it removes it. */
function languageDraft(values: EditorValues, toStored: (html: string) => string) {
  return {
    ...(values.reconvert && { reconvert: 1 as const }),
    ...(!values.reconvert &&
      values.twByHand && { title_tw: values.titleTw.trim(), content_tw: toStored(values.htmlTw) }),
    title_en: values.titleEn.trim(),
    content_en: toStored(values.htmlEn),
  };
}

/** The notice after a save, by the button pressed; `wasPublished`: it was on the site before. */
export function savedNotice(action: Action, saved: AdminBulletin, wasPublished: boolean): string {
  if (action === 'draft') return wasPublished ? '已撤回为草稿' : '草稿已保存';
  if (action === 'publish') return '已发布';
  if (action === 'schedule') return `已定时，将于 ${saved.publish_at.slice(0, 16)} 发布`;
  return '修改已保存';
}

/** Characters as the server counts them: code points, so an emoji is one. */
export const titleLength = (title: string) => [...title.trim()].length;

/** A title over the limit is said, never cut (docs/console.md#writing-an-announcement). */
export function titleLengthProblem(title: string): string | undefined {
  const length = titleLength(title);
  if (length <= bulletinTitleMaxLength) return undefined;
  return `标题最多 ${bulletinTitleMaxLength} 个字，现在有 ${length} 个字，请删减 ${length - bulletinTitleMaxLength} 个字`;
}
