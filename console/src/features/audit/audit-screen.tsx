import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Link } from 'wouter';
import { useDocumentTitle } from '../../lib/document-title';
import { call } from '../../lib/api';
import { Pager } from '../../ui/pager';
import { LoadProblem } from '../../ui/load-problem';
import { Waiting } from '../../ui/status';
import { AuditFilterForm, useAuditFilters } from './audit-filters';
import { auditLink, auditSentence, type AuditEntry } from './audit-sentence';

const size = 20;

const json = (value: unknown) => JSON.stringify(value, null, 2);

/** Who did what and when, newest first, as sentences; the filters and page live in the address,
 * so a reload, a shared link and back/forward keep them (docs/console.md#the-audit-log). */
export function AuditScreen() {
  useDocumentTitle('审计日志');
  const [filters, update] = useAuditFilters();
  const { who, action, from, to, q, page } = filters;
  const log = useQuery({
    queryKey: ['audit', who, action, from, to, q, page],
    queryFn: ({ signal }) =>
      call<{ count: number; list: AuditEntry[] }>(
        `/audit?${new URLSearchParams({ who, action, from, to, q, page_index: String(page), page_size: String(size) })}`,
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
      {/* Keyed by the address, so going back shows the filters of that step. */}
      <AuditFilterForm key={JSON.stringify(filters)} filters={filters} onApply={update} />
      {log.isPending ? (
        <Waiting />
      ) : log.isError ? (
        <LoadProblem what="审计日志" error={log.error} onRetry={() => void log.refetch()} />
      ) : log.data.list.length === 0 ? (
        <p className="py-12 text-center text-sm text-muted">没有符合条件的记录</p>
      ) : (
        <ol aria-label="操作记录" className="flex flex-col gap-3">
          {log.data.list.map((entry) => (
            <li key={entry.id} className="rounded-xl border border-line bg-surface p-4">
              <p className="text-sm">
                <span className="font-semibold">{entry.actor}</span> {auditSentence(entry)}
              </p>
              <p className="mt-1 flex flex-wrap gap-x-3 text-xs text-muted">
                <time>{entry.at}</time>
                <EntryLink entry={entry} />
              </p>
              <details className="mt-2 text-xs">
                <summary className="cursor-pointer text-muted">原始记录</summary>
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
                <p className="mt-1 text-muted">
                  {entry.action} · {entry.target}
                </p>
              </details>
            </li>
          ))}
        </ol>
      )}
      <Pager page={page} pages={pages} onPage={(next) => update({ page: next })} />
    </section>
  );
}

/** The announcement, releases or settings an entry is about, one click away. */
function EntryLink({ entry }: { entry: AuditEntry }) {
  const link = auditLink(entry);
  if (link === undefined) return null;
  return (
    <Link href={link.href} className="text-brand-ink underline underline-offset-4">
      {link.label}
    </Link>
  );
}
