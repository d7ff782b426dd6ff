/**
 * The parts of an announcement a save conflict compares, and the draft the operator's per-part
 * choice makes (docs/console.md#two-operators-one-announcement).
 */
import type { AdminBulletin, BulletinDraft } from './api';

export type ConflictPart = 'title' | 'content' | 'traditional' | 'english' | 'settings';
export type Side = 'mine' | 'theirs';

export const partLabels: Record<ConflictPart, string> = {
  title: '标题',
  content: '正文',
  traditional: '繁体中文',
  english: '英文',
  settings: '置顶与发布设置',
};

/** The saved announcement as a draft: what saving "theirs" would send. */
export function draftOf(current: AdminBulletin): BulletinDraft {
  return {
    title: current.title,
    content: current.content,
    topup: current.topup,
    state: current.status === 'draft' ? 'draft' : 'published',
    publish_at: current.status === 'draft' ? null : current.publish_at,
    unpublish_at: current.unpublish_at,
    unpin_at: current.unpin_at,
  };
}

/** Which parts differ between the operator's unsaved draft and the saved announcement. */
export function differingParts(mine: BulletinDraft, current: AdminBulletin): ConflictPart[] {
  const theirs = draftOf(current);
  const parts: ConflictPart[] = [];
  if (mine.title !== theirs.title) parts.push('title');
  if (mine.content !== theirs.content) parts.push('content');
  if (traditionalDiffers(mine, current)) parts.push('traditional');
  if (englishDiffers(mine, current)) parts.push('english');
  const timeDiffers = mine.publish_at !== null && mine.publish_at !== theirs.publish_at;
  const endDiffers = (['unpublish_at', 'unpin_at'] as const).some(
    (end) => mine[end] !== undefined && (mine[end] ?? null) !== (theirs[end] ?? null),
  );
  if (mine.topup !== theirs.topup || mine.state !== theirs.state || timeDiffers || endDiffers) parts.push('settings');
  return parts;
}

/** The draft the choices make; a part without a choice keeps the operator's. */
export function mergeDraft(
  mine: BulletinDraft,
  current: AdminBulletin,
  choice: Partial<Record<ConflictPart, Side>>,
): BulletinDraft {
  const theirs = draftOf(current);
  const settings = choice.settings === 'theirs' ? theirs : mine;
  return {
    title: choice.title === 'theirs' ? theirs.title : mine.title,
    content: choice.content === 'theirs' ? theirs.content : mine.content,
    topup: settings.topup,
    state: settings.state,
    publish_at: settings.publish_at,
    ...(settings.unpublish_at !== undefined && { unpublish_at: settings.unpublish_at }),
    ...(settings.unpin_at !== undefined && { unpin_at: settings.unpin_at }),
    // Theirs: sent as saved, or not at all (the saved traditional stays as it is).
    ...(choice.traditional !== 'theirs' && pick(mine, ['title_tw', 'content_tw', 'reconvert'])),
    ...(choice.english === 'theirs'
      ? { title_en: current.title_en, content_en: current.content_en }
      : pick(mine, ['title_en', 'content_en'])),
  };
}

/** The operator's own traditional version (or 重新转换) against a saved one it would replace. A
 * draft that leaves it to the converter replaces nothing written by hand, and is no difference. */
function traditionalDiffers(mine: BulletinDraft, current: AdminBulletin): boolean {
  if (mine.reconvert === 1) return current.tw_by_hand === 1;
  if (mine.title_tw === undefined && mine.content_tw === undefined) return false;
  return (
    (mine.title_tw ?? current.title_tw) !== current.title_tw ||
    (mine.content_tw ?? current.content_tw) !== current.content_tw
  );
}

function englishDiffers(mine: BulletinDraft, current: AdminBulletin): boolean {
  return (
    (mine.title_en ?? current.title_en) !== current.title_en ||
    (mine.content_en ?? current.content_en) !== current.content_en
  );
}

/** The fields of `draft` among `names` that it has. */
function pick<K extends keyof BulletinDraft>(draft: BulletinDraft, names: K[]): Partial<Pick<BulletinDraft, K>> {
  return Object.fromEntries(
    names.filter((name) => draft[name] !== undefined).map((name) => [name, draft[name]]),
  ) as Partial<Pick<BulletinDraft, K>>;
}

/** The dialog's heading and first sentence: who saved and when; the same account is another tab. */
export function conflictWords(savedBy: string | null, me: string, when: string): { title: string; text: string } {
  if (savedBy !== null && savedBy === me) {
    return {
      title: '保存冲突：这条公告已在另一个标签页或窗口中保存过',
      text: `你的账号在另一个标签页或窗口中于 ${when} 保存过它。`,
    };
  }
  const who =
    savedBy === null ? '其他人' : savedBy === 'admin-token' ? '管理令牌' : savedBy === 'cli' ? '命令行' : savedBy;
  // A Latin name gets a space either side, as Chinese text sets it apart.
  const name = /^[\x21-\x7e]+$/.test(who) ? ` ${who} ` : who;
  return { title: `保存冲突：这条公告已被${name}修改`, text: `${name.trimStart()}于 ${when} 保存过它。` };
}
