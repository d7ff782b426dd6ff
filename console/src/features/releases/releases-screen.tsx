import { useQuery } from '@tanstack/react-query';
import { useId, useRef, useState } from 'react';
import { useDocumentTitle } from '../../lib/document-title';
import type { ScreenProps } from '../../lib/screen';
import { shortTime } from '../../lib/wire-time';
import { Button } from '../../ui/button';
import { LoadProblem } from '../../ui/load-problem';
import { Problem, Waiting } from '../../ui/status';
import { useNotify } from '../../ui/toasts';
import { formatSize, listReleases, osLabels, releasesKey, type Card, type Release, useRollBack } from './api';
import { MinVersionForm } from './min-version-form';
import { PayloadList } from './payload-list';
import { PublishForm } from './publish-form';
import { ReleaseConfirm } from './release-confirm';
import { RolloutPanel } from './rollout-panel';

const servedLabels = { hosted: '本站', cdn: 'CDN', outside: '外部地址' } as const;

/** One card per platform: what the site offers now and from where, publishing a new release
 * (a package uploaded with progress, or an outside address), and the history with roll-back. */
export function ReleasesScreen({ operator }: ScreenProps) {
  useDocumentTitle('版本发布');
  const releases = useQuery({ queryKey: releasesKey, queryFn: ({ signal }) => listReleases(signal) });
  return (
    <section aria-labelledby="releases-heading" className="flex flex-col gap-5">
      <h1 id="releases-heading" className="text-xl font-semibold">
        版本发布
      </h1>
      {releases.isPending ? (
        <Waiting />
      ) : releases.isError ? (
        <LoadProblem what="版本列表" error={releases.error} onRetry={() => void releases.refetch()} />
      ) : (
        <div className="grid gap-4 lg:grid-cols-2">
          {releases.data.map((card) => (
            <PlatformCard key={card.os} card={card} timeZone={operator.time_zone} />
          ))}
        </div>
      )}
    </section>
  );
}

function PlatformCard({ card, timeZone }: { card: Card; timeZone: string }) {
  const [publishing, setPublishing] = useState(false);
  const headingId = useId();
  const notify = useNotify();
  const opener = useRef<HTMLButtonElement>(null);
  const { current } = card;
  const offered = card.history.find((release) => release.id === current?.release_id);
  // Closed by 取消 or 停止上传: focus goes back to 发布新版本, and a stopped upload says so.
  const close = (stoppedUpload: boolean) => {
    setPublishing(false);
    if (stoppedUpload) notify({ text: `已停止上传，${osLabels[card.os]} 没有发布新版本` });
    requestAnimationFrame(() => opener.current?.focus());
  };
  return (
    <article aria-labelledby={headingId} className="flex flex-col gap-3 rounded-xl border border-line bg-surface p-4">
      <div className="flex items-center justify-between gap-2">
        <h2 id={headingId} className="text-lg font-semibold">
          {osLabels[card.os]}
        </h2>
        {!publishing && (
          <Button ref={opener} tone="primary" onClick={() => setPublishing(true)}>
            发布新版本
          </Button>
        )}
      </div>
      {current === null ? (
        <p className="text-sm text-muted">当前没有提供安装包</p>
      ) : (
        <dl className="grid grid-cols-[6rem_1fr] gap-x-3 gap-y-1 text-sm">
          <dt className="text-muted">当前版本</dt>
          <dd className="font-semibold">{current.version ?? '—'}</dd>
          <dt className="text-muted">大小</dt>
          <dd>{formatSize(current.size)}</dd>
          <dt className="text-muted">发布时间</dt>
          <dd>{current.released_at === null ? '—' : shortTime(current.released_at)}</dd>
          <dt className="text-muted">最低系统</dt>
          <dd>{current.min_os ?? '—'}</dd>
          <dt className="text-muted">更新说明</dt>
          <dd className="line-clamp-4 whitespace-pre-line">{current.notes ?? '—'}</dd>
          <dt className="text-muted">下载来源</dt>
          <dd>
            {servedLabels[current.served_from]} ·{' '}
            <a
              href={current.served_url}
              className="break-all text-brand-ink underline"
              rel="noreferrer"
              target="_blank"
            >
              {current.served_url}
            </a>
          </dd>
          <dt className="text-muted">SHA-256</dt>
          <dd className="font-mono text-xs break-all">{current.sha256 ?? '—'}</dd>
          {offered !== undefined && offered.payloads.length > 0 && (
            <>
              <dt className="text-muted">更新包</dt>
              <dd>
                <PayloadList os={card.os} payloads={offered.payloads} version={offered.version ?? `#${offered.id}`} />
              </dd>
            </>
          )}
        </dl>
      )}
      {card.rollout !== null && <RolloutPanel os={card.os} rollout={card.rollout} />}
      <MinVersionForm key={card.min_version ?? ''} os={card.os} minVersion={card.min_version} />
      {publishing && (
        <PublishForm
          os={card.os}
          current={current?.version ?? null}
          canStage={current !== null && current.release_id !== null}
          timeZone={timeZone}
          onDone={() => setPublishing(false)}
          onClose={close}
        />
      )}
      <History card={card} />
    </article>
  );
}

function History({ card }: { card: Card }) {
  const [target, setTarget] = useState<Release>();
  const back = useRollBack();
  if (card.history.length === 0) return null;
  return (
    <details className="text-sm">
      <summary className="cursor-pointer text-muted">历史版本（{card.history.length}）</summary>
      {back.isError && <Problem>回滚失败：{back.error.message}</Problem>}
      <ol aria-label={`${osLabels[card.os]} 历史版本`} className="mt-2 flex flex-col gap-2">
        {card.history.map((release) => (
          <li
            key={release.id}
            className="flex flex-wrap items-center gap-x-3 gap-y-1 rounded-lg bg-surface-2 px-3 py-2"
          >
            <span className="font-semibold">{release.version ?? '（无版本号）'}</span>
            {release.is_force && (
              <span className="rounded-full border border-danger px-2 py-0.5 text-xs font-medium">强制更新</span>
            )}
            <span className="text-muted">{release.released_at === null ? '' : shortTime(release.released_at)}</span>
            <span className="text-muted">{release.created_by}</span>
            <span className="text-muted">{release.file_key === null ? '外部地址' : formatSize(release.size)}</span>
            <span className="ms-auto">
              {release.current ? (
                <span className="rounded-full bg-brand/15 px-2 py-0.5 text-xs font-medium text-brand-ink">当前</span>
              ) : (
                <Button
                  disabled={back.isPending}
                  aria-label={`回滚到此版本：${release.version ?? `#${release.id}`}`}
                  onClick={() => setTarget(release)}
                >
                  回滚到此版本
                </Button>
              )}
            </span>
            <PayloadList os={card.os} payloads={release.payloads} version={release.version ?? `#${release.id}`} />
          </li>
        ))}
      </ol>
      {target !== undefined && (
        <ReleaseConfirm
          os={card.os}
          from={card.current?.version ?? null}
          to={target.version ?? `版本 #${target.id}`}
          rollback
          endsRollout={card.rollout !== null}
          open
          onOpenChange={(open) => open || setTarget(undefined)}
          onConfirm={() => back.mutate(target)}
        />
      )}
    </details>
  );
}
