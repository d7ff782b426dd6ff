import { isAppVersion } from '@chat-site/contract';
import { ApiError } from '../../lib/api';

/** What the publish form holds when 发布 is pressed. */
export interface ReleaseDraft {
  source: 'file' | 'url';
  file: File | null;
  url: string;
  version: string;
}

export type ReleaseProblems = Partial<Record<'file' | 'url' | 'version', string>>;

/** The release form's fields checked before the confirm step, as the announcement editor checks
 * its own: each problem is said beside its field (docs/console.md#releases-settings-and-numbers).
 * The server checks them again. */
export function releaseProblems(draft: ReleaseDraft): ReleaseProblems {
  const problems: ReleaseProblems = {};
  if (draft.source === 'file' && draft.file === null) problems.file = '请选择安装包文件';
  if (draft.source === 'url' && !isDownloadAddress(draft.url.trim())) {
    problems.url = '请填写以 https:// 或 http:// 开头的完整下载地址';
  }
  const version = draft.version.trim();
  if (version !== '' && !isAppVersion(version)) problems.version = versionFormatHint(version);
  return problems;
}

/** The sentence for a version the update checks could not compare. */
export function versionFormatHint(version: string): string {
  return `“${version}”不是版本号：请用数字和点，如 5.2.0（可带 -beta 等后缀）`;
}

function isDownloadAddress(text: string): boolean {
  if (!/^https?:\/\//i.test(text)) return false;
  try {
    return new URL(text).hostname !== '';
  } catch {
    return false;
  }
}

/** The APK's own version when the server refused the one typed for it (its `found`). */
export function apkVersionFound(error: unknown): string | undefined {
  if (!(error instanceof ApiError) || error.field !== 'version') return undefined;
  const found = error.body.found;
  return typeof found === 'string' && found !== '' ? found : undefined;
}

export const apkVersionSentence = (typed: string, found: string) =>
  `这个 APK 的版本是 ${found}，不是 ${typed}：已填入 ${found}，确认无误后再点“发布”`;
