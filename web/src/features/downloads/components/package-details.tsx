import type { InstallPackageEntry } from '@chat-site/contract';
import { useRef } from 'react';
import { ExternalLink } from '../../../components/ui/external-link';
import { hashHref, paths } from '../../../config/paths';
import { currentLanguage, t } from '../../../lib/i18n';
import type { Platform } from '../../../lib/platform';
import { hashLines, packageFacts, type DetailField } from '../cards';
import { CopyButton, copyButtonClass } from './copy-button';
import { fieldMark, loadingMark } from '../../../lib/page-marks';

/**
 * The facts the package entry carries: version, size, release date, SHA-256 and release notes.
 * Each appears only when the entry has it, so a server that sends none shows nothing here. The
 * data-field marks are where src/early-download.ts writes an early answer's facts into a copy.
 */
export function PackageDetails({ entry, name }: { entry: Pick<InstallPackageEntry, DetailField>; name: string }) {
  const hashRef = useRef<HTMLElement>(null);
  const { version, size, released, sha256, notesUrl, notes, notesLanguage } = packageFacts(entry);
  const facts: [DetailRow, string, string | undefined][] = [
    ['version', t('download.version'), version],
    ['size', t('download.size'), size],
    ['released', t('download.released'), released],
  ];
  const shown = facts.filter(([, , value]) => value !== undefined);
  if (shown.length === 0 && sha256 === undefined && notesUrl === undefined && notes === undefined) return null;
  return (
    <div {...fieldMark('details')} className="mt-4 w-full border-t border-line pt-4 text-left text-sm">
      {shown.length > 0 && (
        <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1">
          {shown.map(([field, label, value]) => (
            <div key={field} {...fieldMark(field)} className="contents">
              <dt className="text-muted">{label}</dt>
              <dd className="text-right font-medium tabular-nums">{value}</dd>
            </div>
          ))}
        </dl>
      )}
      {sha256 !== undefined && (
        <div {...fieldMark('sha256')} className="mt-3 @container">
          <div className="flex items-center justify-between gap-2">
            <span className="text-muted">SHA-256</span>
            <CopyButton
              text={sha256}
              label={t('download.copySha', { platform: name })}
              selectOnFailure={() => hashRef.current}
            />
          </div>
          <code ref={hashRef} className={hashClass}>
            <HashLines sha256={sha256} />
          </code>
        </div>
      )}
      {notes !== undefined && (
        <div {...fieldMark('notes-text')} className="mt-3">
          <p className="line-clamp-3 whitespace-pre-line text-muted">{notes}</p>
          {/* An English reader is told when the operator wrote no English notes, as for an
              announcement (docs/site.md#the-download-screen); an answer that does not say is Chinese. */}
          {currentLanguage() === 'en' && notesLanguage !== 'en' && (
            <p {...fieldMark('notes-lang')} className="text-xs text-muted">
              {t('announcements.inChinese')}
            </p>
          )}
          <a href={hashHref(paths.changelog)} className="text-brand hover:underline">
            {t('download.allNotes')}
          </a>
        </div>
      )}
      {notesUrl !== undefined && (
        <ExternalLink {...fieldMark('notes')} href={notesUrl} className="mt-3 inline-block text-brand hover:underline">
          {t('download.releaseNotes')}
        </ExternalLink>
      )}
    </div>
  );
}

type DetailRow = 'version' | 'size' | 'released';

/** The hash in its two lines (hashLines), each a box where the card holds 32 digits a line (32ch
 * of a 12 px monospace face, about 230 px); on a narrower card (four to a row, or a 320 px
 * phone) one run as before, which wraps evenly. The placeholder draws it the same way, so the
 * card keeps its height when the facts arrive. */
function HashLines({ sha256 }: { sha256: string }) {
  // By place: the two lines can be equal.
  return hashLines(sha256).map((line, index) => (
    <span key={index} className="@min-[231px]:inline-block">
      {line}
    </span>
  ));
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
    <div
      {...loadingMark}
      aria-hidden="true"
      className="invisible mt-4 w-full border-t border-line pt-4 text-left text-sm"
    >
      <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1">
        {rows.map((label) => (
          <div key={label} className="contents">
            <dt>{label}</dt>
            <dd>0</dd>
          </div>
        ))}
      </dl>
      {!store && (
        <div className="mt-3 @container">
          <div className="flex items-center justify-between gap-2">
            <span>SHA-256</span>
            <span className={`inline-block ${copyButtonClass}`}>{t('download.copy')}</span>
          </div>
          <code className={hashClass}>
            <HashLines sha256={'0'.repeat(64)} />
          </code>
        </div>
      )}
      <span className="mt-3 inline-block">{t('download.releaseNotes')}</span>
    </div>
  );
}
