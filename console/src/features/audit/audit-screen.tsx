import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useDocumentTitle } from '../../app/title';
import { call } from '../../lib/api';
import { Pager } from '../../ui/pager';
import { SearchForm } from '../../ui/search-form';
import { LoadProblem } from '../../ui/load-problem';
import { Waiting } from '../../ui/status';

interface AuditEntry {
  id: number;
  at: string;
  actor: string;
  action: string;
  target: string;
  before: unknown;
  after: unknown;
}

const size = 20;

/** The names of actions, in the console's words; an unknown one is shown as it is stored. */
const actionLabels: Record<string, string> = {
  'bulletin.create': '新建公告',
  'bulletin.update': '修改公告',
  'bulletin.remove': '删除公告',
  'bulletin.restore': '从回收站恢复',
  'bulletin.purge': '彻底删除公告',
  'bulletin.revision.restore': '恢复历史版本',
  'file.upload': '上传文件',
  'file.remove': '删除文件',
  'packages.set': '修改安装包',
  'release.publish': '发布新版本',
  'release.rollback': '回滚版本',
  'release.min_version': '修改最低支持版本',
  'appconfig.set': '修改 CDN 设置',
  'region.set': '修改区域文件',
  'user.add': '添加账号',
  'user.remove': '删除账号',
  'user.reset-password': '重置密码',
  'user.change-password': '修改密码',
};

const json = (value: unknown) => JSON.stringify(value, null, 2);

/** Who did what and when, newest first, with the before and after of each change. */
export function AuditScreen() {
  useDocumentTitle('审计日志');
  const [page, setPage] = useState(1);
  const [who, setWho] = useState('');
  const log = useQuery({
    queryKey: ['audit', who, page],
    queryFn: ({ signal }) =>
      call<{ count: number; list: AuditEntry[] }>(
        `/audit?${new URLSearchParams({ who, page_index: String(page), page_size: String(size) })}`,
        { signal },
      ),
    placeholderData: keepPreviousData,
  });
  const pages = Math.max(1, Math.ceil((log.data?.count ?? 0) / size));
  return (
    <section aria-labelledby="audit-heading" className="flex flex-col gap-5">
      <h1 id="audit-heading" className="text-xl font-semibold">
        审计日志
      </h1>
      <SearchForm
        id="audit-who"
        label="按操作人或对象筛选"
        placeholder="操作人或对象，例如 alice 或公告编号"
        submit="筛选"
        width="md:w-96"
        onSearch={(text) => {
          setWho(text);
          setPage(1);
        }}
      />
      {log.isPending ? (
        <Waiting />
      ) : log.isError ? (
        <LoadProblem what="审计日志" error={log.error} onRetry={() => void log.refetch()} />
      ) : log.data.list.length === 0 ? (
        <p className="py-12 text-center text-sm text-muted">没有记录</p>
      ) : (
        <ol aria-label="操作记录" className="flex flex-col gap-3">
          {log.data.list.map((entry) => (
            <li key={entry.id} className="rounded-xl border border-line bg-surface p-4">
              <div className="flex flex-wrap items-baseline gap-x-3 gap-y-1 text-sm">
                <time className="text-muted">{entry.at}</time>
                <span className="font-semibold">{entry.actor}</span>
                <span>{actionLabels[entry.action] ?? entry.action}</span>
                <span className="text-muted">对象：{entry.target}</span>
              </div>
              {(entry.before !== null || entry.after !== null) && (
                <details className="mt-2 text-xs">
                  <summary className="cursor-pointer text-muted">修改前后</summary>
                  <div className="mt-2 grid gap-2 md:grid-cols-2">
                    <div>
                      <p className="mb-1 font-medium">修改前</p>
                      <pre className="max-h-64 overflow-auto rounded-lg bg-surface-2 p-2 whitespace-pre-wrap">
                        {json(entry.before)}
                      </pre>
                    </div>
                    <div>
                      <p className="mb-1 font-medium">修改后</p>
                      <pre className="max-h-64 overflow-auto rounded-lg bg-surface-2 p-2 whitespace-pre-wrap">
                        {json(entry.after)}
                      </pre>
                    </div>
                  </div>
                </details>
              )}
            </li>
          ))}
        </ol>
      )}
      <Pager page={page} pages={pages} onPage={setPage} />
    </section>
  );
}
