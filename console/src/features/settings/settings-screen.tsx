import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useDocumentTitle } from '../../lib/document-title';
import { call } from '../../lib/api';
import { Button } from '../../ui/button';
import { ConfirmDialog } from '../../ui/confirm-dialog';
import { Field, inputClass } from '../../ui/field';
import { LoadProblem } from '../../ui/load-problem';
import { Problem, Waiting } from '../../ui/status';
import {
  publicRead,
  settingsKeys,
  useCheckCdn,
  useSaveCdn,
  useSaveRegion,
  type AppConfig,
  type CdnCheck,
  type RegionDocument,
} from './api';
import { ListingSettings } from './listing-settings';

/** The app config (the CDN) with a check that the CDN serves the site's files, the region
 * document, the site's listing (filings, stores, search verification), and the site config
 * file, read-only. */
export function SettingsScreen() {
  useDocumentTitle('设置');
  return (
    <section aria-labelledby="settings-heading" className="flex flex-col gap-6">
      <h1 id="settings-heading" className="text-xl font-semibold">
        设置
      </h1>
      <CdnSettings />
      <RegionSettings />
      <ListingSettings />
      <SiteConfigView />
    </section>
  );
}

const panel = 'flex flex-col gap-3 rounded-xl border border-line bg-surface p-4';

function CdnSettings() {
  const saved = useQuery({
    queryKey: settingsKeys.appConfig,
    queryFn: ({ signal }) => publicRead<AppConfig>('/common/appconfig', signal),
  });
  return (
    <section aria-labelledby="cdn-heading" className={panel}>
      <h2 id="cdn-heading" className="text-lg font-semibold">
        CDN
      </h2>
      {saved.isPending ? (
        <Waiting />
      ) : saved.isError ? (
        <LoadProblem what="CDN 设置" error={saved.error} onRetry={() => void saved.refetch()} />
      ) : (
        <CdnForm key={JSON.stringify(saved.data)} saved={saved.data} />
      )}
    </section>
  );
}

function CdnForm({ saved }: { saved: AppConfig }) {
  const [useCdn, setUseCdn] = useState(saved.use_cdn === 1);
  const [url, setUrl] = useState(saved.common_cdn_bucket_url);
  const [confirming, setConfirming] = useState(false);
  const save = useSaveCdn();
  const check = useCheckCdn();
  const saveNow = () => save.mutate({ use_cdn: useCdn ? 1 : 0, common_cdn_bucket_url: url.trim() });
  // Turning the CDN on after its check failed sends every visitor's downloads to an address
  // that did not serve them: it asks first (docs/console.md#releases-settings-and-numbers).
  const failed = check.data !== undefined && !check.data.ok;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (useCdn && failed) setConfirming(true);
    else saveNow();
  };
  return (
    <form onSubmit={submit} className="flex flex-col gap-3">
      <label className="flex items-center gap-2 text-sm">
        <input type="checkbox" checked={useCdn} onChange={(event) => setUseCdn(event.target.checked)} />
        使用 CDN 分发本站托管的文件
      </label>
      <Field id="cdn-url" label="CDN 地址" hint="文件地址为“CDN 地址/文件名”，CDN 回源到本站的 /v1/file/preview/">
        <input
          id="cdn-url"
          type="url"
          placeholder="https://cdn.example.com/bucket"
          value={url}
          onChange={(event) => setUrl(event.target.value)}
          className={inputClass}
        />
      </Field>
      {save.isError && <Problem>保存失败：{save.error.message}</Problem>}
      <div className="flex flex-wrap gap-2">
        <Button type="submit" tone="primary" disabled={save.isPending}>
          保存
        </Button>
        <Button disabled={check.isPending} onClick={() => check.mutate(url.trim())}>
          {check.isPending ? '检查中…' : '检查 CDN'}
        </Button>
      </div>
      {check.isError && <Problem>检查失败：{check.error.message}</Problem>}
      {check.data !== undefined && <CheckResult result={check.data} />}
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title="CDN 检查未通过，仍要使用？"
        description={
          <p>所有访客将立即从 {url.trim()} 下载安装包和图片，而不是从本站。刚才的检查没有通过，访客可能无法下载。</p>
        }
        confirm="仍然使用 CDN"
        tone="danger"
        onConfirm={saveNow}
      />
    </form>
  );
}

function CheckResult({ result }: { result: CdnCheck }) {
  const text = result.ok
    ? `CDN 正常：返回 ${result.status}，用时 ${result.ms} 毫秒`
    : result.redirected_to !== null
      ? `CDN 重定向到其他主机（未跟随）：${result.redirected_to}`
      : !result.answered
        ? `CDN 没有响应：${result.error ?? ''}（${result.ms} 毫秒）`
        : `CDN 有响应但不正确：返回 ${result.status}${result.error === null ? '' : `，${result.error}`}（${result.ms} 毫秒）`;
  return (
    <div
      role="status"
      className={`rounded-lg border px-3 py-2 text-sm ${result.ok ? 'border-brand text-fg' : 'border-danger text-danger'}`}
    >
      <p>{text}</p>
      <p className="mt-1 text-xs break-all text-muted">检查的文件：{result.probe_url}</p>
    </div>
  );
}

const lines = (text: string) =>
  text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '')
    .map((addr) => ({ addr }));

function RegionSettings() {
  const saved = useQuery({
    queryKey: settingsKeys.region,
    queryFn: ({ signal }) => publicRead<RegionDocument>('/region', signal),
  });
  return (
    <section aria-labelledby="region-heading" className={panel}>
      <h2 id="region-heading" className="text-lg font-semibold">
        区域文件
      </h2>
      {saved.isPending ? (
        <Waiting />
      ) : saved.isError ? (
        <LoadProblem what="区域文件" error={saved.error} onRetry={() => void saved.refetch()} />
      ) : (
        <RegionForm key={JSON.stringify(saved.data)} saved={saved.data} />
      )}
    </section>
  );
}

function RegionForm({ saved }: { saved: RegionDocument }) {
  const [api, setApi] = useState(saved.api_addrs.map((entry) => entry.addr).join('\n'));
  const [allocator, setAllocator] = useState(saved.allocator_addrs.map((entry) => entry.addr).join('\n'));
  const save = useSaveRegion();
  return (
    <form
      className="flex flex-col gap-3"
      onSubmit={(event) => {
        event.preventDefault();
        save.mutate({ api_addrs: lines(api), allocator_addrs: lines(allocator) });
      }}
    >
      <Field id="region-api" label="API 地址（每行一个）" hint="至少一个；只能是 http(s) 地址，不能重复">
        <textarea
          id="region-api"
          rows={3}
          value={api}
          onChange={(event) => setApi(event.target.value)}
          className={inputClass}
        />
      </Field>
      <Field id="region-allocator" label="分配器地址（每行一个）">
        <textarea
          id="region-allocator"
          rows={2}
          value={allocator}
          onChange={(event) => setAllocator(event.target.value)}
          className={inputClass}
        />
      </Field>
      {save.isError && <Problem>保存失败：{save.error.message}</Problem>}
      <div>
        <Button type="submit" tone="primary" disabled={save.isPending}>
          保存区域文件
        </Button>
      </div>
    </form>
  );
}

function SiteConfigView() {
  const site = useQuery({
    queryKey: ['site-config'],
    queryFn: ({ signal }) => call<{ path: string; config: unknown }>('/site-config', { signal }),
  });
  return (
    <section aria-labelledby="site-config-heading" className={panel}>
      <h2 id="site-config-heading" className="text-lg font-semibold">
        站点配置（只读）
      </h2>
      {site.isPending ? (
        <Waiting />
      ) : site.isError ? (
        <LoadProblem what="站点配置" error={site.error} onRetry={() => void site.refetch()} />
      ) : (
        <>
          <p className="text-sm text-muted">
            来自文件 <code className="break-all">{site.data.path}</code>，修改文件后重启服务器生效。
          </p>
          <pre
            tabIndex={0}
            aria-label="站点配置内容"
            className="max-h-96 overflow-auto rounded-lg bg-surface-2 p-3 text-xs whitespace-pre-wrap"
          >
            {JSON.stringify(site.data.config, null, 2)}
          </pre>
        </>
      )}
    </section>
  );
}
