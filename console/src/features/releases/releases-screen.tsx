import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { useDocumentTitle } from '../../lib/document-title';
import type { ScreenProps } from '../../lib/screen';
import { fromFieldTime, shortTime } from '../../lib/wire-time';
import { Button } from '../../ui/button';
import { Field, inputClass } from '../../ui/field';
import { LoadProblem } from '../../ui/load-problem';
import { Problem, Waiting } from '../../ui/status';
import { useNotify } from '../../ui/toasts';
import {
  formatSize,
  listReleases,
  osExtensions,
  osLabels,
  publishRelease,
  releasesKey,
  removeFile,
  rollBack,
  uploadPackage,
  type Card,
  type NewRelease,
  type Os,
  type Release,
} from './api';
import { MinVersionForm } from './min-version-form';
import { ReleaseConfirm } from './release-confirm';

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
  const { current } = card;
  return (
    <article aria-labelledby={headingId} className="flex flex-col gap-3 rounded-xl border border-line bg-surface p-4">
      <div className="flex items-center justify-between gap-2">
        <h2 id={headingId} className="text-lg font-semibold">
          {osLabels[card.os]}
        </h2>
        <Button tone={publishing ? 'ghost' : 'primary'} onClick={() => setPublishing(!publishing)}>
          {publishing ? '取消发布' : '发布新版本'}
        </Button>
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
        </dl>
      )}
      <MinVersionForm key={card.min_version ?? ''} os={card.os} minVersion={card.min_version} />
      {publishing && (
        <PublishForm
          os={card.os}
          current={current?.version ?? null}
          timeZone={timeZone}
          onDone={() => setPublishing(false)}
        />
      )}
      <History card={card} />
    </article>
  );
}

function History({ card }: { card: Card }) {
  const client = useQueryClient();
  const notify = useNotify();
  const [target, setTarget] = useState<Release>();
  const back = useMutation({
    mutationFn: (release: Release) => rollBack(release.id),
    onSuccess: async (release) => {
      await client.invalidateQueries({ queryKey: releasesKey });
      notify({ text: `${osLabels[release.os]} 已回滚到 ${release.version ?? `版本 #${release.id}`}` });
    },
  });
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
          </li>
        ))}
      </ol>
      {target !== undefined && (
        <ReleaseConfirm
          os={card.os}
          from={card.current?.version ?? null}
          to={target.version ?? `版本 #${target.id}`}
          rollback
          open
          onOpenChange={(open) => open || setTarget(undefined)}
          onConfirm={() => back.mutate(target)}
        />
      )}
    </details>
  );
}

type Source = 'file' | 'url';

function PublishForm({
  os,
  current,
  timeZone,
  onDone,
}: {
  os: Os;
  current: string | null;
  timeZone: string;
  onDone: () => void;
}) {
  const client = useQueryClient();
  const notify = useNotify();
  const id = useId();
  const [source, setSource] = useState<Source>('file');
  const [file, setFile] = useState<File | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [fields, setFields] = useState({ url: '', version: '', notes: '', releasedAt: '', minOs: '', signature: '' });
  const [force, setForce] = useState(false);
  const set = (name: keyof typeof fields) => (event: { target: { value: string } }) =>
    setFields((old) => ({ ...old, [name]: event.target.value }));
  // 取消发布 closes this form: whatever it was doing stops, and nothing is published.
  const cancelled = useRef(new AbortController());
  useEffect(() => {
    const controller = new AbortController();
    cancelled.current = controller;
    return () => controller.abort();
  }, []);
  const publish = useMutation({
    mutationFn: async () => {
      const { signal } = cancelled.current;
      const release: NewRelease = { os };
      if (source === 'file') {
        if (file === null) throw new Error('请选择安装包文件');
        setProgress(0);
        const key = await uploadPackage(file, setProgress, signal);
        if (signal.aborted) {
          // Cancelled between its last byte and the release: the stored file goes too.
          await removeFile(key);
          throw new Error('上传已取消');
        }
        release.file_key = key;
      } else release.url = fields.url.trim();
      if (fields.version.trim() !== '') release.version = fields.version.trim();
      if (fields.notes.trim() !== '') release.notes = fields.notes;
      if (fields.releasedAt !== '') release.released_at = fromFieldTime(fields.releasedAt);
      if (fields.minOs.trim() !== '') release.min_os = fields.minOs.trim();
      if (force) release.force_update = true;
      if (fields.signature.trim() !== '') release.signature = fields.signature.trim();
      return publishRelease(release, signal);
    },
    onSuccess: async (release) => {
      await client.invalidateQueries({ queryKey: releasesKey });
      notify({ text: `${osLabels[os]} ${release.version ?? ''} 已发布` });
      onDone();
    },
    onSettled: () => setProgress(null),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setConfirming(true);
  };
  return (
    <form
      onSubmit={submit}
      aria-label={`发布 ${osLabels[os]} 新版本`}
      className="flex flex-col gap-3 border-t border-line pt-3"
    >
      <fieldset className="flex gap-4 text-sm">
        <legend className="mb-1 font-medium">安装包来源</legend>
        {(
          [
            ['file', '上传文件'],
            ['url', '外部地址'],
          ] as const
        ).map(([value, label]) => (
          <label key={value} className="flex items-center gap-1.5">
            <input type="radio" name={`${id}-source`} checked={source === value} onChange={() => setSource(value)} />
            {label}
          </label>
        ))}
      </fieldset>
      {source === 'file' ? (
        <Field id={`${id}-file`} label="安装包文件" hint={`支持 ${osExtensions[os]}；大文件分块上传，断线后可继续`}>
          <input
            id={`${id}-file`}
            type="file"
            accept={osExtensions[os]}
            onChange={(event) => setFile(event.target.files?.[0] ?? null)}
            className={inputClass}
          />
        </Field>
      ) : (
        <Field id={`${id}-url`} label="下载地址">
          <input
            id={`${id}-url`}
            type="url"
            required
            placeholder="https://"
            value={fields.url}
            onChange={set('url')}
            className={inputClass}
          />
        </Field>
      )}
      {progress !== null && (
        <div className="flex items-center gap-2 text-sm">
          <progress aria-label="上传进度" max={1} value={progress} className="h-2 flex-1" />
          <span aria-live="polite">{Math.floor(progress * 100)}%</span>
        </div>
      )}
      <Field
        id={`${id}-version`}
        label="版本号"
        hint={os === 'android' && source === 'file' ? '留空则从 APK 读取；填写时必须与 APK 一致' : undefined}
      >
        <input
          id={`${id}-version`}
          value={fields.version}
          onChange={set('version')}
          maxLength={64}
          className={inputClass}
        />
      </Field>
      <Field id={`${id}-notes`} label="更新说明" hint="下载页的卡片显示前三行，更新日志显示全文">
        <textarea id={`${id}-notes`} rows={3} value={fields.notes} onChange={set('notes')} className={inputClass} />
      </Field>
      <div className="grid gap-3 sm:grid-cols-2">
        <Field id={`${id}-date`} label="发布时间" hint={`留空为现在；时区 ${timeZone}`}>
          <input
            id={`${id}-date`}
            type="datetime-local"
            value={fields.releasedAt}
            onChange={set('releasedAt')}
            className={inputClass}
          />
        </Field>
        <Field id={`${id}-min-os`} label="最低系统版本" hint="显示在下载页的卡片上；留空则显示默认要求">
          <input
            id={`${id}-min-os`}
            value={fields.minOs}
            onChange={set('minOs')}
            maxLength={64}
            placeholder={{ android: 'Android 8.0', ios: 'iOS 13', windows: 'Windows 10', mac: 'macOS 11' }[os]}
            className={inputClass}
          />
        </Field>
      </div>
      <label className="flex items-center gap-2 text-sm">
        <input type="checkbox" checked={force} onChange={(event) => setForce(event.target.checked)} />
        强制更新（旧版本的应用必须更新后才能继续使用）
      </label>
      {(os === 'windows' || os === 'mac') && (
        <Field id={`${id}-signature`} label="更新签名（Tauri，可选）" hint="tauri build 生成的 .sig 文件内容">
          <textarea
            id={`${id}-signature`}
            rows={2}
            value={fields.signature}
            onChange={set('signature')}
            maxLength={4096}
            className={`${inputClass} font-mono text-xs`}
          />
        </Field>
      )}
      {publish.isError && <Problem>发布失败：{publish.error.message}</Problem>}
      <ReleaseConfirm
        os={os}
        from={current}
        to={fields.version.trim()}
        open={confirming}
        onOpenChange={setConfirming}
        onConfirm={() => publish.mutate()}
      />
      <div>
        <Button type="submit" tone="primary" disabled={publish.isPending}>
          {publish.isPending ? '发布中…' : '发布'}
        </Button>
      </div>
    </form>
  );
}
