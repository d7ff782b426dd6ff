/**
 * Inside a chat app's built-in browser (docs/site.md#in-app-browsers), answers a tap on a
 * download the app would leave dead with the guide instead, and counts both the visit and each
 * guide shown. Anywhere else it does nothing and the guide's chunk is never fetched.
 */
import { downloadKindAttribute, inAppTapAttribute } from '@chat-site/contract';
import {
  blocksDownload,
  downloadKinds,
  inAppBrowser,
  type DownloadKind,
  type InAppBrowser,
} from '@chat-site/contract/in-app';
import { lazy, Suspense, useEffect, useState } from 'react';

const Guide = lazy(() => import('./guide'));

export interface BlockedTap {
  kind: DownloadKind;
  href: string;
  /** The link tapped, where focus goes back to when the guide closes. */
  opener: HTMLElement | null;
}

const isKind = (text: string | null | undefined): text is DownloadKind =>
  (downloadKinds as readonly (string | null | undefined)[]).includes(text);

/** POST /dl/in-app/{event} on the site's own server, which reads the app from the request's user
 * agent; a lost beacon is a lost count, nothing more. */
function count(event: 'visit' | 'guide'): void {
  try {
    navigator.sendBeacon(new URL(`/dl/in-app/${event}`, location.href).href);
  } catch {
    // No beacon in this browser, or refused: nothing is counted.
  }
}

let visitCounted = false;

/** The tap src/early-download.ts caught before this script ran (the effect takes it off the
 * page); none in the build's prerender. */
function earlyTap(): BlockedTap | undefined {
  if (import.meta.env.SSR) return undefined;
  const [kind, ...href] = (document.documentElement.getAttribute(inAppTapAttribute) ?? '').split(' ');
  return isKind(kind) ? { kind, href: href.join(' '), opener: null } : undefined;
}

function blockedTap(event: MouseEvent, app: InAppBrowser): BlockedTap | undefined {
  const link = (event.target as Element | null)?.closest?.(`a[${downloadKindAttribute}]`);
  const kind = link?.getAttribute(downloadKindAttribute);
  if (!(link instanceof HTMLAnchorElement) || !isKind(kind) || !blocksDownload(app, kind)) return undefined;
  return { kind, href: link.href, opener: link };
}

export function InAppGuide() {
  const [tap, setTap] = useState(earlyTap);
  useEffect(() => {
    document.documentElement.removeAttribute(inAppTapAttribute);
    const app = inAppBrowser(navigator.userAgent);
    if (app === undefined) return;
    if (!visitCounted) count('visit');
    visitCounted = true;
    const answer = (event: MouseEvent) => {
      const found = blockedTap(event, app);
      if (found === undefined) return;
      event.preventDefault();
      // src/early-download.ts caught it too, if it ran: it is this listener's.
      document.documentElement.removeAttribute(inAppTapAttribute);
      setTap(found);
    };
    document.addEventListener('click', answer, true);
    return () => document.removeEventListener('click', answer, true);
  }, []);
  useEffect(() => {
    if (tap !== undefined) count('guide');
  }, [tap]);
  if (tap === undefined) return null;
  const close = () => {
    setTap(undefined);
    // A tap caught before the script ran was on a link React has since drawn anew.
    const opener = tap.opener?.isConnected
      ? tap.opener
      : document.querySelector(`a[${downloadKindAttribute}="${tap.kind}"]`);
    if (opener instanceof HTMLElement) opener.focus();
  };
  return (
    <Suspense fallback={null}>
      <Guide href={tap.href} onClose={close} />
    </Suspense>
  );
}
