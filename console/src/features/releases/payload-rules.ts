/**
 * The update payloads a Mac or Windows release carries beside its download
 * (docs/releases.md#update-payloads): what each role is, which files fit it, and the rows of the
 * release form checked before anything is uploaded (docs/console.md#releases-settings-and-numbers).
 * The server checks them again.
 */
import type { PayloadArch, PayloadBody, PayloadRole, ReleasePayload } from '@chat-site/contract/admin';
import type { Os } from './api';

export type { PayloadArch, PayloadBody, PayloadRole, ReleasePayload };

/** Only the desktop platforms have updaters that fetch payloads. */
export const takesPayloads = (os: Os): os is 'mac' | 'windows' => os === 'mac' || os === 'windows';

export const roleLabels: Record<PayloadRole, string> = {
  electron: 'electron-updater 更新包',
  electron_blockmap: 'electron-updater 差分文件 (.blockmap)',
  tauri: 'Tauri 更新包',
};

/** Shorter, for the history's one line per payload. */
export const roleShortLabels: Record<PayloadRole, string> = {
  electron: 'electron 更新包',
  electron_blockmap: 'electron 差分文件',
  tauri: 'Tauri 更新包',
};

/** Apple's ARM chips are what a Mac operator knows; on Windows it is plain ARM64. */
export function archLabel(os: Os, arch: PayloadArch | null | undefined): string {
  if (arch === 'x86_64') return 'x86_64';
  if (arch === 'aarch64') return os === 'mac' ? 'Apple 芯片·ARM64' : 'ARM64';
  return '全部架构';
}

/** The endings each role takes per platform, as the updaters themselves fetch them. */
export const roleEndings: Record<'mac' | 'windows', Record<PayloadRole, string[]>> = {
  mac: { electron: ['.zip'], electron_blockmap: ['.blockmap'], tauri: ['.app.tar.gz'] },
  windows: {
    electron: ['.exe'],
    electron_blockmap: ['.blockmap'],
    tauri: ['.nsis.zip', '.msi.zip', '.exe', '.msi'],
  },
};

/** For the file picker: browsers match one ending, so `.app.tar.gz` is offered as `.gz`. */
export const pickerAccept = (os: 'mac' | 'windows', role: PayloadRole) =>
  roleEndings[os][role].map((ending) => ending.slice(ending.lastIndexOf('.'))).join(',');

export const fitsRole = (os: 'mac' | 'windows', role: PayloadRole, name: string) =>
  roleEndings[os][role].some((ending) => name.toLowerCase().endsWith(ending));

/** One row of the form's 更新包 section. */
export interface PayloadDraft {
  /** Stable across removals, for React and the fields' ids. */
  key: number;
  role: PayloadRole;
  arch: PayloadArch | '';
  source: 'file' | 'url';
  file: File | null;
  url: string;
  signature: string;
}

export type PayloadField = 'role' | 'file' | 'url' | 'signature';
export type PayloadProblems = Partial<Record<PayloadField, string>>;

/** A new row: the first role and architecture no row has yet. */
export function newPayload(key: number, rows: PayloadDraft[]): PayloadDraft {
  const roles: PayloadRole[] = ['electron', 'electron_blockmap', 'tauri'];
  const role = roles.find((one) => !rows.some((row) => row.role === one && row.arch === '')) ?? 'electron';
  return { key, role, arch: '', source: 'file', file: null, url: '', signature: '' };
}

/** The name the updater will see: the chosen file's, or the address's last segment. */
export function payloadName(row: PayloadDraft): string | undefined {
  if (row.source === 'file') return row.file?.name;
  try {
    const segment = new URL(row.url.trim()).pathname.split('/').pop() ?? '';
    return decodeURIComponent(segment) || undefined;
  } catch {
    return undefined;
  }
}

/** Each row's problems, by its place: a file missing or of the wrong kind for its role, the same
 * role and architecture twice, a Tauri payload without its signature. */
export function payloadProblems(os: 'mac' | 'windows', rows: PayloadDraft[]): PayloadProblems[] {
  return rows.map((row, index) => {
    const problems: PayloadProblems = {};
    const where = row.source === 'file' ? 'file' : 'url';
    const name = payloadName(row);
    if (row.source === 'file' && row.file === null) problems.file = '请选择更新包文件';
    else if (row.source === 'url' && !/^https?:\/\/[^/]/i.test(row.url.trim())) {
      problems.url = '请填写以 https:// 或 http:// 开头的完整地址';
    } else if (name === undefined || !fitsRole(os, row.role, name)) problems[where] = wrongKind(os, row.role, name);
    const earlier = rows.slice(0, index).some((other) => other.role === row.role && other.arch === row.arch);
    if (earlier) problems.role = `前面已有一个 ${roleLabels[row.role]}（${archLabel(os, row.arch || null)}）`;
    if (row.role === 'tauri' && row.signature.trim() === '') {
      problems.signature = '请粘贴 Tauri 打包时生成的 .sig 文件内容：没有签名，Tauri 不会安装';
    }
    return problems;
  });
}

/** "x.dmg 不是 Mac 的 electron-updater 更新包：请选择 .zip 文件". */
export function wrongKind(os: 'mac' | 'windows', role: PayloadRole, name: string | undefined): string {
  const endings = roleEndings[os][role].join('、');
  const platform = os === 'mac' ? 'Mac' : 'Windows';
  return `${name === undefined ? '这个地址' : `“${name}”`}不是 ${platform} 的 ${roleLabels[role]}：应为 ${endings} 文件`;
}

/** What 发布 sends for a row; a chosen file's key is added once it is uploaded. */
export function payloadBody(row: PayloadDraft): PayloadBody {
  const body: PayloadBody = { role: row.role };
  if (row.arch !== '') body.arch = row.arch;
  if (row.source === 'url') body.url = row.url.trim();
  if (row.role === 'tauri' && row.signature.trim() !== '') body.signature = row.signature.trim();
  return body;
}

/** A stored payload's file name: a hosted key is its hash, a dash and the name. */
export function storedName(payload: Pick<ReleasePayload, 'file_key' | 'download_url'>): string {
  if (payload.file_key !== null) return payload.file_key.replace(/^[0-9a-f]{16}-/, '');
  const segment = payload.download_url.split(/[?#]/)[0]?.split('/').pop() ?? '';
  try {
    return decodeURIComponent(segment) || payload.download_url;
  } catch {
    return segment;
  }
}

/** Where the server's refusal of a payload goes: `payloads[N].…` (as the admin API names a
 * field, docs/admin-api.md#error-codes; `payloads/N/…` as a pointer) is row N's field. */
export function payloadRefusalPlace(
  field: string | undefined,
  rows: PayloadDraft[],
): { index: number; field: PayloadField } | undefined {
  const match = /^payloads(?:\[(\d+)\]|\/(\d+))(?:[./](\w+))?/.exec(field ?? '');
  if (match === null) return undefined;
  const index = Number(match[1] ?? match[2]);
  const row = rows[index];
  if (row === undefined) return undefined;
  const part = match[3];
  if (part === 'signature' && row.role === 'tauri') return { index, field: 'signature' };
  if (part === 'file_key' || part === 'url') return { index, field: row.source };
  return { index, field: 'role' };
}
