// The audit log as sentences (docs/console.md#the-audit-log): titles, platforms and versions,
// changed fields by their form labels, never ids and JSON.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { auditSentence, changedFields, type AuditEntry } from '../src/features/audit/audit-sentence';

const entry = (action: string, target: string, before: unknown, after: unknown): AuditEntry => ({
  id: 1,
  at: '2026-11-26 10:00:00',
  actor: 'alice',
  action,
  target,
  before,
  after,
});

test('an announcement by its title, with what changed', () => {
  const before = { id: 7, title: '维护通知', content: '<p>a</p>', topup: 0, version: 1, updated_at: 'x' };
  const after = { id: 7, title: '停机维护通知', content: '<p>b</p>', topup: 0, version: 2, updated_at: 'y' };
  assert.equal(
    auditSentence(entry('bulletin.update', '7', before, after)),
    '修改了公告《停机维护通知》（原标题《维护通知》）：改了标题、正文',
  );
  assert.equal(auditSentence(entry('bulletin.remove', '7', before, null)), '删除了公告《维护通知》');
  assert.equal(auditSentence(entry('bulletin.create', '8', null, { title: '新版本上线' })), '新建了公告《新版本上线》');
});

test("a release by its platform and version; a platform's lowest version", () => {
  assert.equal(
    auditSentence(entry('release.publish', 'release:3', null, { id: 3, os: 'ios', version: '5.2.0' })),
    '发布了 iOS 5.2.0 版本',
  );
  assert.equal(
    auditSentence(entry('release.rollback', 'release:2', null, { id: 2, os: 'windows', version: '5.0.1' })),
    '回滚到了 Windows 5.0.1 版本',
  );
  assert.equal(
    auditSentence(entry('release.min_version', 'min_version:mac', {}, { mac: '5.1.0' })),
    '把 Mac 的最低支持版本设为 5.1.0',
  );
});

test('settings name the fields as the forms do', () => {
  const region = entry(
    'region.set',
    'region',
    { api_addrs: [{ addr: 'https://a' }], allocator_addrs: [] },
    { api_addrs: [{ addr: 'https://b' }], allocator_addrs: [] },
  );
  assert.equal(auditSentence(region), '修改了区域文件：改了API 地址');
  assert.deepEqual(
    changedFields({ use_cdn: 0, common_cdn_bucket_url: '' }, { use_cdn: 1, common_cdn_bucket_url: 'https://c' }),
    ['使用 CDN', 'CDN 地址'],
  );
});

test('publishing, scheduling and taking back read as such; a restore names its version', () => {
  const draft = { title: '端午放假', status: 'draft', publish_at: '2026-11-26 09:00:00', content: 'a' };
  const published = { ...draft, status: 'published', publish_at: '2026-11-26 10:00:00' };
  const scheduled = { ...draft, status: 'scheduled', publish_at: '2026-12-01 08:30:00', content: 'b' };
  assert.equal(auditSentence(entry('bulletin.update', '7', draft, published)), '发布了公告《端午放假》');
  assert.equal(
    auditSentence(entry('bulletin.update', '7', draft, scheduled)),
    '定时发布公告《端午放假》，定于 2026-12-01 08:30，并改了正文',
  );
  assert.equal(auditSentence(entry('bulletin.update', '7', published, draft)), '把公告《端午放假》撤回为草稿');
  const restored = { ...published, title: '端午节放假', restored_from: 41, restored_version: 3 };
  assert.equal(
    auditSentence(entry('bulletin.revision.restore', '7', published, restored)),
    '把公告《端午节放假》恢复到了第 3 版：改了标题',
  );
  const long = '很'.repeat(60);
  assert.equal(
    auditSentence(entry('bulletin.create', '9', null, { title: long })),
    `新建了公告《${'很'.repeat(24)}…》`,
  );
});

test('a staged roll-out: its first share, each raise, halt and resume', () => {
  const release = { id: 4, os: 'android', version: '5.1.0', rollout_percentage: 10 };
  assert.equal(
    auditSentence(entry('release.publish', 'release:4', null, release)),
    '发布了 Android 5.1.0 版本，先推送给 10% 的安装',
  );
  const rollout = { os: 'android', version: '5.1.0', previous_version: '5.0.0', percentage: 10, halted: false };
  const raised = { ...rollout, percentage: 50 };
  assert.equal(
    auditSentence(entry('release.rollout.percentage', 'rollout:android', rollout, raised)),
    '把 Android 5.1.0 的推送比例从 10% 调到 50%',
  );
  assert.equal(
    auditSentence(entry('release.rollout.halt', 'rollout:android', raised, { ...raised, halted: true })),
    '暂停了 Android 5.1.0 的分阶段发布，尚未更新的安装改为提供 5.0.0',
  );
  assert.equal(
    auditSentence(entry('release.rollout.resume', 'rollout:android', { ...raised, halted: true }, raised)),
    '继续了 Android 5.1.0 的分阶段发布，推送给 50% 的安装',
  );
});
