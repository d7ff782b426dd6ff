/**
 * An audit entry as a sentence a person reads (docs/console.md#the-audit-log): which
 * announcement by its title, which platform's release and version, which fields changed named as
 * the console's forms label them. The raw record stays one click away on the screen.
 */
import type { AuditEntry } from '@chat-site/contract/admin';
import { fieldLabel } from '../../lib/field-labels';

export type { AuditEntry };

/** The names of actions, in the console's words; an unknown one is shown as it is stored. */
export const actionLabels: Record<string, string> = {
  'bulletin.create': '新建公告',
  'bulletin.update': '修改公告',
  'bulletin.remove': '删除公告',
  'bulletin.restore': '从回收站恢复',
  'bulletin.purge': '彻底删除公告',
  'bulletin.revision.restore': '恢复历史版本',
  'bulletin.duplicate': '复制公告',
  'bulletin.unpublish': '到时下线',
  'bulletin.unpin': '到时取消置顶',
  'file.upload': '上传文件',
  'file.remove': '删除文件',
  'packages.set': '修改安装包',
  'release.publish': '发布新版本',
  'release.rollback': '回滚版本',
  'release.min_version': '修改最低支持版本',
  'release.rollout.percentage': '调整推送比例',
  'release.rollout.halt': '暂停分阶段发布',
  'release.rollout.resume': '继续分阶段发布',
  'appconfig.set': '修改 CDN 设置',
  'region.set': '修改区域文件',
  'listing.set': '修改备案与商店',
  'user.add': '添加账号',
  'user.remove': '删除账号',
  'user.reset-password': '重置密码',
  'user.change-password': '修改密码',
};

const platforms: Record<string, string> = { android: 'Android', ios: 'iOS', windows: 'Windows', mac: 'Mac' };

/** Fields a record carries that are bookkeeping, not something the operator changed. */
const bookkeeping = new Set([
  'id',
  'version',
  'updated_at',
  'created_at',
  'created_by',
  'updated_by',
  'restored_from',
  'restored_version',
]);

/** Labels the audit shows beyond the forms' own (console/src/lib/field-labels.ts). */
const extraLabels: Record<string, string> = {
  status: '状态',
  content: '正文',
  download_url: '下载地址',
  is_force: '强制更新',
};

const record = (value: unknown): Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};

const text = (value: unknown) => (typeof value === 'string' || typeof value === 'number' ? String(value) : '');

/** The fields whose value differs between `before` and `after`, as the console labels them. */
export function changedFields(before: unknown, after: unknown): string[] {
  const old = record(before);
  const now = record(after);
  const keys = [...new Set([...Object.keys(old), ...Object.keys(now)])].filter((key) => !bookkeeping.has(key));
  return keys
    .filter((key) => JSON.stringify(old[key]) !== JSON.stringify(now[key]))
    .map((key) => extraLabels[key] ?? fieldLabel(key));
}

/** A title longer than this is cut with … in the sentence; 原始记录 keeps it whole. */
export const sentenceTitleLength = 24;

const shortTitle = (title: string) => {
  const characters = [...title];
  return characters.length <= sentenceTitleLength ? title : `${characters.slice(0, sentenceTitleLength).join('')}…`;
};

const titled = (value: unknown, fallback: string) => {
  const title = text(record(value).title);
  return title === '' ? `编号 ${fallback} 的公告` : `公告《${shortTitle(title)}》`;
};

/** A save that published, scheduled or took back an announcement says so first; the other
 * fields it changed follow. Undefined for a save that left its status alone. */
function statusSentence(before: unknown, after: unknown, target: string, changes: string[]): string | undefined {
  const was = text(record(before).status);
  const now = text(record(after).status);
  if (was === now || now === '') return undefined;
  const rest = changes.filter((label) => label !== '状态' && label !== '发布时间');
  const also = rest.length === 0 ? '' : `，并改了${rest.join('、')}`;
  const name = titled(after, target);
  if (now === 'published') return `发布了${name}${also}`;
  if (now === 'scheduled') return `定时发布${name}，定于 ${text(record(after).publish_at).slice(0, 16)}${also}`;
  return `把${name}撤回为草稿${also}`;
}

const shownTitle = (value: unknown) => {
  const title = text(record(value).title);
  return title === '' ? '' : `《${shortTitle(title)}》`;
};

const platform = (os: unknown) => platforms[text(os)] ?? text(os);

/** A roll-out's change (docs/releases.md#staged-roll-out), named by platform and version. */
function rolloutSentence(action: string, before: unknown, after: unknown): string {
  const now = record(after);
  const name = `${platform(now.os)} ${text(now.version)}`.trim();
  const share = text(now.percentage);
  if (action === 'release.rollout.halt') {
    return `暂停了 ${name} 的分阶段发布，尚未更新的安装改为提供 ${text(now.previous_version)}`;
  }
  if (action === 'release.rollout.resume') return `继续了 ${name} 的分阶段发布，推送给 ${share}% 的安装`;
  return `把 ${name} 的推送比例从 ${text(record(before).percentage)}% 调到 ${share}%`;
}

/** What was done, as a sentence without who and when (the screen shows those beside it). */
export function auditSentence(entry: AuditEntry): string {
  const { action, target, before, after } = entry;
  const changes = changedFields(before, after);
  const listed = changes.length === 0 ? '' : `：改了${changes.join('、')}`;
  switch (action) {
    case 'bulletin.create':
      return `新建了${titled(after, target)}`;
    case 'bulletin.update': {
      const oldTitle = text(record(before).title);
      const newTitle = text(record(after).title);
      const renamed =
        oldTitle !== '' && newTitle !== '' && oldTitle !== newTitle ? `（原标题${shownTitle(before)}）` : '';
      return statusSentence(before, after, target, changes) ?? `修改了${titled(after, target)}${renamed}${listed}`;
    }
    case 'bulletin.remove':
      return `删除了${titled(before, target)}`;
    case 'bulletin.restore':
      return `从回收站恢复了${titled(after, target)}`;
    case 'bulletin.purge':
      return `彻底删除了${titled(before, target)}`;
    case 'bulletin.revision.restore': {
      // Named as 历史版本 names it; entries written before the version was kept say less.
      const version = text(record(after).restored_version);
      const which = version === '' ? '一个历史版本' : `第 ${version} 版`;
      return `把${titled(after, target)}恢复到了${which}${listed}`;
    }
    case 'bulletin.duplicate':
      return `复制出了${titled(after, target)}`;
    case 'bulletin.unpublish':
      return `按下线时间把${titled(before, target)}撤回为草稿`;
    case 'bulletin.unpin':
      return `按置顶截止时间取消了${titled(before, target)}的置顶`;
    case 'release.publish':
    case 'release.rollback': {
      const release = record(after);
      const version = text(release.version) === '' ? '' : ` ${text(release.version)}`;
      const verb = action === 'release.publish' ? '发布了' : '回滚到了';
      const share = Number(release.rollout_percentage);
      const staged = share > 0 && share < 100 ? `，先推送给 ${share}% 的安装` : '';
      return `${verb} ${platform(release.os)}${version} 版本${staged}`;
    }
    case 'release.rollout.percentage':
    case 'release.rollout.halt':
    case 'release.rollout.resume':
      return rolloutSentence(action, before, after);
    case 'release.min_version': {
      const os = target.replace(/^min_version:/, '');
      const version = text(record(after)[os]);
      return version === ''
        ? `取消了 ${platform(os)} 的最低支持版本`
        : `把 ${platform(os)} 的最低支持版本设为 ${version}`;
    }
    case 'appconfig.set':
      return `修改了 CDN 设置${listed}`;
    case 'region.set':
      return `修改了区域文件${listed}`;
    case 'listing.set':
      return `修改了备案与商店设置${listed}`;
    case 'packages.set':
      return '修改了安装包列表';
    case 'file.upload':
      return `上传了文件 ${text(record(after).name) || target}`;
    case 'file.remove':
      return `删除了文件 ${target}`;
    case 'user.add':
      return `添加了账号 ${target}`;
    case 'user.remove':
      return `删除了账号 ${target}`;
    case 'user.reset-password':
      return `重置了账号 ${target} 的密码`;
    case 'user.change-password':
      return '修改了自己的密码';
    default:
      return `${actionLabels[action] ?? action}（${target}）`;
  }
}

/** Where the console shows what an entry is about: the announcement (the trash for a deleted
 * one), or the releases; none for what is gone or has no screen. */
export function auditLink(entry: AuditEntry): { href: string; label: string } | undefined {
  const { action, target } = entry;
  if (action === 'bulletin.remove') return { href: '/bulletins/trash', label: '查看回收站' };
  if (action.startsWith('bulletin.') && action !== 'bulletin.purge' && /^\d+$/.test(target)) {
    return { href: `/bulletins/${target}`, label: '打开公告' };
  }
  if (action.startsWith('release.')) return { href: '/releases', label: '查看版本发布' };
  if (action === 'appconfig.set' || action === 'region.set') return { href: '/settings', label: '查看设置' };
  return undefined;
}
