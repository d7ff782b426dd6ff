import type { AnchorHTMLAttributes } from 'react';

/** Every external link opens in a new tab without handing the new page a way back. */
export function ExternalLink(props: AnchorHTMLAttributes<HTMLAnchorElement>) {
  return <a target="_blank" rel="noopener noreferrer" {...props} />;
}
