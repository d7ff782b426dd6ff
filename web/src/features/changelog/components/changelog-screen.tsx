import { defaultLanguage, type ChangelogRelease, type Language } from '@chat-site/contract';
import { useCallback } from 'react';
import { Icon, iconPaths } from '../../../components/ui/icon';
import { ErrorMessage, Loading, Notice } from '../../../components/ui/status';
import { useApi } from '../../../lib/api-bootstrap/api-provider';
import { t, useLanguage } from '../../../lib/i18n';
import { useAsync } from '../../../lib/use-async';
import { getChangelog } from '../api/get-changelog';
import { useChangelogText } from '../messages';
import { ReleaseItem } from './release-item';

/** The feed of the same releases the server publishes beside the site, in the visitor's
 * language (docs/reach.md#languages-of-share-pages-and-feeds). */
const feedPath = (language: Language) =>
  language === defaultLanguage ? '/changelog.atom' : `/changelog.atom?lang=${language}`;

/** Platforms in the download screen's order, with the names the products go by in any language. */
const platformNames = { android: 'Android', ios: 'iOS', windows: 'Windows', mac: 'Mac' } as const;
type Platform = keyof typeof platformNames;

/** The releases of each platform that has any, newest first as the server sends them. */
export function byPlatform(releases: ChangelogRelease[]): [Platform, ChangelogRelease[]][] {
  return (Object.keys(platformNames) as Platform[]).flatMap((os) => {
    const own = releases.filter((release) => release.os === os);
    return own.length === 0 ? [] : [[os, own] as [Platform, ChangelogRelease[]]];
  });
}

/** docs/site.md#changelog: every release per platform; loading, error and empty states. */
export function ChangelogScreen() {
  const api = useApi();
  const apiAddr = api.status === 'ready' ? api.apiAddr : null;
  const language = useLanguage();
  const load = useCallback(() => getChangelog(apiAddr, language), [apiAddr, language]);
  const list = useAsync(api.status === 'ready' ? load : null, `${api.status}:${apiAddr ?? ''}:${language}`);
  const text = useChangelogText();
  return (
    <section className="mx-auto max-w-3xl px-4 py-6 md:px-6 md:py-10">
      <div className="flex items-center justify-between gap-3">
        <h1 className="text-2xl font-bold md:text-3xl">{t('nav.changelog')}</h1>
        <a
          href={feedPath(language)}
          type="application/atom+xml"
          aria-label={text.feed}
          title={text.feed}
          className="grid size-10 shrink-0 place-items-center rounded-full text-muted hover:bg-surface-2 hover:text-fg"
        >
          <Icon path={iconPaths.rss} />
        </a>
      </div>
      <p className="mt-2 text-muted">{text.subtitle}</p>
      {list.status === 'idle' || list.status === 'loading' ? (
        <Loading />
      ) : list.status === 'error' ? (
        <ErrorMessage>{text.error}</ErrorMessage>
      ) : (
        <Releases releases={list.data} />
      )}
    </section>
  );
}

export function Releases({ releases }: { releases: ChangelogRelease[] }) {
  const text = useChangelogText();
  const groups = byPlatform(releases);
  if (groups.length === 0) return <Notice>{text.empty}</Notice>;
  return (
    <div data-testid="changelog" className="mt-8 grid gap-10">
      {groups.map(([os, own]) => (
        <section key={os} aria-labelledby={`changelog-${os}`}>
          <h2 id={`changelog-${os}`} className="flex items-center gap-2 text-xl font-semibold">
            {platformNames[os]}{' '}
            <span className="text-sm font-medium text-muted">
              {text.releases.replace('{count}', String(own.length))}
            </span>
          </h2>
          <ol className="mt-4 grid gap-3">
            {own.map((release, index) => (
              <ReleaseItem key={`${release.version} ${index}`} release={release} />
            ))}
          </ol>
        </section>
      ))}
    </div>
  );
}
