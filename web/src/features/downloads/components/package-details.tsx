import { formatDate, type InstallPackageEntry } from '@chat-site/contract';
import { useRef } from 'react';
import { ExternalLink } from '../../../components/ui/external-link';
import { t } from '../../../lib/i18n';
import type { Platform } from '../../../lib/platform';
import { CopyButton, copyButtonClass } from './copy-button';

/** What the visitor can check before installing. Sizes in binary units, as file managers show. */
export function formatSize(bytes: number): string {
  const units = ['B', 'KB', 'MB', 'GB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${unit === 0 ? value : value.toFixed(1)} ${units[unit]}`;
}

/**
 * The facts the package entry carries: version, size, release date, SHA-256 and release notes.
 * Each appears only when the entry has it, so a server that sends none shows nothing here.
 */
export function PackageDetails({ entry, name }: { entry: Pick<InstallPackageEntry, DetailField>; name: string }) {
  const hashRef = useRef<HTMLElement>(null);
  // Other servers' fields are not checked on the wire: show only what is what it claims to be.
  const sha256 = entry.sha256 !== undefined && /^[0-9a-f]{64}$/.test(entry.sha256) ? entry.sha256 : undefined;
  const notesUrl =
    entry.releaseNotesUrl !== undefined && /^https?:\/\//i.test(entry.releaseNotesUrl)
      ? entry.releaseNotesUrl
      : undefined;
  const released = entry.releasedAt === undefined ? '' : formatDate(entry.releasedAt);
  const facts: [string, string][] = [];
  if (entry.version !== undefined) facts.push([t('download.version'), entry.version]);
  if (entry.size !== undefined) facts.push([t('download.size'), formatSize(entry.size)]);
  if (released !== '') facts.push([t('download.released'), released]);
  if (facts.length === 0 && sha256 === undefined && notesUrl === undefined) return null;
  return (
    <div className="mt-4 w-full border-t border-line pt-4 text-left text-sm">
      {facts.length > 0 && (
        <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1">
          {facts.map(([label, value]) => (
            <div key={label} className="contents">
              <dt className="text-muted">{label}</dt>
              <dd className="text-right font-medium tabular-nums">{value}</dd>
            </div>
          ))}
        </dl>
      )}
      {sha256 !== undefined && (
        <div className="mt-3">
          <div className="flex items-center justify-between gap-2">
            <span className="text-muted">SHA-256</span>
            <CopyButton
              text={sha256}
              label={t('download.copySha', { platform: name })}
              selectOnFailure={() => hashRef.current}
            />
          </div>
          <code ref={hashRef} className={hashClass}>
            {sha256}
          </code>
        </div>
      )}
      {notesUrl !== undefined && (
        <ExternalLink href={notesUrl} className="mt-3 inline-block text-brand hover:underline">
          {t('download.releaseNotes')}
        </ExternalLink>
      )}
    </div>
  );
}

/** 64 hex digits in two lines of 32 wherever the card is wide enough, so the block is as tall
 * as its placeholder. */
const hashClass = 'mt-1 block max-w-[32ch] font-mono text-xs leading-4 break-all text-muted';

/**
 * What PackageDetails will show once the package list arrives, invisible: a card keeps that
 * height from its first paint, so the facts arriving move no card below it. The App Store's
 * card has no size, hash or release notes link of its own to show.
 */
export function PackageDetailsPlaceholder({ platform }: { platform: Platform }) {
  const store = platform === 'ios';
  const rows = store
    ? [t('download.version'), t('download.released')]
    : [t('download.version'), t('download.size'), t('download.released')];
  return (
    <div aria-hidden="true" className="invisible mt-4 w-full border-t border-line pt-4 text-left text-sm">
      <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1">
        {rows.map((label) => (
          <div key={label} className="contents">
            <dt>{label}</dt>
            <dd>0</dd>
          </div>
        ))}
      </dl>
      {!store && (
        <div className="mt-3">
          <div className="flex items-center justify-between gap-2">
            <span>SHA-256</span>
            <span className={`inline-block ${copyButtonClass}`}>{t('download.copy')}</span>
          </div>
          <code className={hashClass}>{'0'.repeat(64)}</code>
        </div>
      )}
      <span className="mt-3 inline-block">{t('download.releaseNotes')}</span>
    </div>
  );
}

export type DetailField = 'version' | 'size' | 'sha256' | 'releasedAt' | 'releaseNotesUrl';
