/**
 * 备案与商店: the site's filing numbers, the app's store pages and the search engines'
 * verification codes (docs/console.md#releases-settings-and-numbers). The form says what is wrong
 * with a field before it is sent; the admin API checks the same again.
 */
import { androidStoreNamesZhCn, androidStores, icpFilingPattern, policeFilingPattern } from '@chat-site/contract';
import type { SearchEngine, SiteListing } from '@chat-site/contract/admin';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { call } from '../../lib/api';
import { Button } from '../../ui/button';
import { Field, inputClass } from '../../ui/field';
import { LoadProblem } from '../../ui/load-problem';
import { Problem, Waiting } from '../../ui/status';
import { useNotify } from '../../ui/toasts';

const listingKey = ['listing'] as const;

export const storeLabels = androidStoreNamesZhCn;

const engineLabels: Record<SearchEngine, string> = {
  baidu: '百度',
  sogou: '搜狗',
  so360: '360 搜索',
  bing: '必应',
  google: 'Google',
};

const isUrl = (text: string) => text === '' || /^https?:\/\/[^\s/?#]+\S*$/i.test(text);

/** Each field's problem in the operator's words, by the API's field path. */
export function listingProblems(listing: SiteListing): Record<string, string> {
  const problems: Record<string, string> = {};
  if (!new RegExp(icpFilingPattern).test(listing.icp_filing))
    problems['icp_filing'] = 'ICP 备案号应形如“京ICP备12345678号-1”：省份简称、ICP备、数字、号';
  if (!new RegExp(policeFilingPattern).test(listing.police_filing))
    problems['police_filing'] = '公安备案号应形如“京公网安备11010502030143号”：省份简称、公网安备、14 位数字、号';
  if (listing.police_badge && listing.police_filing === '')
    problems['police_filing'] = '显示公安备案图标需要先填写公安备案号';
  if (!isUrl(listing.harmonyos_url)) problems['harmonyos_url'] = '请填写以 http:// 或 https:// 开头的完整地址';
  for (const store of androidStores)
    if (!isUrl(listing.stores[store])) problems[`stores.${store}`] = '请填写以 http:// 或 https:// 开头的完整地址';
  for (const [engine, code] of Object.entries(listing.verification))
    if (!/^[A-Za-z0-9_-]{0,100}$/.test(code))
      problems[`verification.${engine}`] = '只填验证标签 content 里的值：字母、数字、- 和 _，最多 100 个字符';
  return problems;
}

export function ListingSettings() {
  const saved = useQuery({ queryKey: listingKey, queryFn: ({ signal }) => call<SiteListing>('/listing', { signal }) });
  return (
    <section
      aria-labelledby="listing-heading"
      className="flex flex-col gap-3 rounded-xl border border-line bg-surface p-4"
    >
      <h2 id="listing-heading" className="text-lg font-semibold">
        备案与商店
      </h2>
      {saved.isPending ? (
        <Waiting />
      ) : saved.isError ? (
        <LoadProblem what="备案与商店设置" error={saved.error} onRetry={() => void saved.refetch()} />
      ) : (
        <ListingForm key={JSON.stringify(saved.data)} saved={saved.data} />
      )}
    </section>
  );
}

function useSaveListing() {
  const client = useQueryClient();
  const notify = useNotify();
  return useMutation({
    mutationFn: (listing: SiteListing) => call<SiteListing>('/listing', { method: 'PUT', body: listing }),
    onSuccess: async () => {
      await client.invalidateQueries({ queryKey: listingKey });
      notify({ text: '备案与商店设置已保存，页面从下一次打开起生效' });
    },
  });
}

function ListingForm({ saved }: { saved: SiteListing }) {
  const [listing, setListing] = useState(saved);
  const [shown, setShown] = useState<Record<string, string>>({});
  const save = useSaveListing();
  const trimmed = (): SiteListing =>
    JSON.parse(JSON.stringify(listing), (_, value: unknown) =>
      typeof value === 'string' ? value.trim() : value,
    ) as SiteListing;
  const text = (
    id: string,
    label: string,
    value: string,
    set: (next: string) => void,
    hint?: string,
    placeholder?: string,
  ) => (
    <Field id={`listing-${id}`} label={label} hint={hint} error={shown[id]}>
      <input
        id={`listing-${id}`}
        value={value}
        placeholder={placeholder}
        aria-invalid={shown[id] !== undefined}
        aria-describedby={shown[id] === undefined ? undefined : `listing-${id}-error`}
        onChange={(event) => set(event.target.value)}
        className={inputClass}
      />
    </Field>
  );
  return (
    <form
      noValidate
      className="flex flex-col gap-3"
      onSubmit={(event) => {
        event.preventDefault();
        const next = trimmed();
        const problems = listingProblems(next);
        setShown(problems);
        if (Object.keys(problems).length === 0) save.mutate(next);
      }}
    >
      <p className="text-sm text-muted">填写的内容显示在网站每个页面上；留空的项不显示。</p>
      {text(
        'icp_filing',
        'ICP 备案号',
        listing.icp_filing,
        (icp_filing) => setListing({ ...listing, icp_filing }),
        '显示在页面底部，链接到工信部备案系统',
        '京ICP备12345678号-1',
      )}
      {text(
        'police_filing',
        '公安备案号',
        listing.police_filing,
        (police_filing) => setListing({ ...listing, police_filing }),
        '显示在页面底部，链接到全国互联网安全管理服务平台',
        '京公网安备11010502030143号',
      )}
      <label className="flex items-center gap-2 text-sm">
        <input
          type="checkbox"
          checked={listing.police_badge}
          onChange={(event) => setListing({ ...listing, police_badge: event.target.checked })}
        />
        在公安备案号前显示公安备案图标
      </label>
      {text(
        'harmonyos_url',
        'HarmonyOS NEXT：华为应用市场地址',
        listing.harmonyos_url,
        (harmonyos_url) => setListing({ ...listing, harmonyos_url }),
        '留空时，下载页告诉 HarmonyOS NEXT 访客暂未上架，并推荐网页版',
        'https://appgallery.huawei.com/app/…',
      )}
      <fieldset className="flex flex-col gap-3">
        <legend className="mb-1 text-sm font-semibold">Android 应用商店</legend>
        {androidStores.map((store) =>
          text(`stores.${store}`, storeLabels[store], listing.stores[store], (url) =>
            setListing({ ...listing, stores: { ...listing.stores, [store]: url } }),
          ),
        )}
      </fieldset>
      <fieldset className="flex flex-col gap-3">
        <legend className="mb-1 text-sm font-semibold">搜索引擎站点验证</legend>
        {(Object.keys(engineLabels) as SearchEngine[]).map((engine) =>
          text(
            `verification.${engine}`,
            `${engineLabels[engine]}验证码`,
            listing.verification[engine],
            (code) => setListing({ ...listing, verification: { ...listing.verification, [engine]: code } }),
            engine === 'baidu' ? '验证标签 content 的值，例如 codeva-AbC123' : undefined,
          ),
        )}
      </fieldset>
      {save.isError && <Problem>保存失败：{save.error.message}</Problem>}
      <div>
        <Button type="submit" tone="primary" disabled={save.isPending}>
          保存备案与商店
        </Button>
      </div>
    </form>
  );
}
