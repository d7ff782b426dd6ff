import { useMemo } from 'react';
import { sanitizeBulletinHtml } from '../../../../web/src/console-surface/sanitize';

/** Shows hosted pictures from this server, like the editor (html-paths.ts). */
const resolveSrc = (src: string) => (src.startsWith('file/') ? `/v1/${src}` : src);

/** An announcement body cleaned as the site cleans it, in the site's typography. */
export function BulletinHtml({ html }: { html: string }) {
  const clean = useMemo(() => sanitizeBulletinHtml(html, resolveSrc), [html]);
  return clean.trim() === '' ? (
    <p className="text-sm text-muted">（正文为空）</p>
  ) : (
    <div className="prose-bulletin" dangerouslySetInnerHTML={{ __html: clean }} />
  );
}
