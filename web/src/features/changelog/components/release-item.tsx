import type { ChangelogRelease } from '@chat-site/contract';
import { t, useLanguage } from '../../../lib/i18n';
import { useChangelogText } from '../messages';

/** Sizes in MB, one decimal, as the changelog shows them; never "0.0 MB" for a real file. */
export function formatMegabytes(bytes: number): string {
  return `${Math.max(bytes / 1024 / 1024, bytes > 0 ? 0.1 : 0).toFixed(1)} MB`;
}

/** One release: version (and whether it forces the update), date, size and notes. */
export function ReleaseItem({ release }: { release: ChangelogRelease }) {
  const text = useChangelogText();
  const language = useLanguage();
  const date = release.releasedAt.slice(0, 10);
  // The notes' own line breaks, kept without a CSS rule of their own (it would weigh on every
  // first load: docs/performance.md#the-first-load-budget).
  const notes = release.notes.trim();
  const lines = (notes === '' ? [] : notes.split('\n')).flatMap((line, index) =>
    index === 0 ? [line] : [<br key={index} />, line],
  );
  const facts: [string, string][] = [
    ...(date === '' ? [] : [[t('download.released'), date] as [string, string]]),
    ...(release.size === undefined ? [] : [[t('download.size'), formatMegabytes(release.size)] as [string, string]]),
  ];
  return (
    <li className="rounded-2xl border border-line bg-surface p-4 md:p-6">
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
        <span className="text-lg font-semibold tabular-nums">
          <span className="sr-only">{t('download.version')} </span>
          {release.version}
        </span>
        {release.force && (
          <span className="rounded-full bg-brand/15 px-2 py-0.5 text-xs font-medium text-brand-ink">{text.force}</span>
        )}
      </div>
      {facts.length > 0 && (
        <dl className="mt-1 flex flex-wrap gap-x-4 gap-y-1 text-sm text-muted">
          {facts.map(([label, value]) => (
            <div key={label} className="flex gap-1">
              <dt>{label}</dt>
              <dd className="tabular-nums">{value}</dd>
            </div>
          ))}
        </dl>
      )}
      <p className="mt-3 text-sm leading-6 break-words">{lines.length === 0 ? text.noNotes : lines}</p>
      {/* As the download card says it (docs/site.md#changelog): an answer that does not say is Chinese. */}
      {language === 'en' && lines.length > 0 && release.language !== 'en' && (
        <p className="mt-1 text-xs text-muted">{t('announcements.inChinese')}</p>
      )}
    </li>
  );
}
