/**
 * The pages the build writes into index.html and its twin in each other language
 * (web/build/prerender.ts), so a first paint needs no script. Each is the client's own route tree as its first
 * render shows it, before any API answer:
 * - the landing page, which the client hydrates (src/main.tsx). What the build cannot know waits
 *   for hydration (useHydrated): the footer, far below the fold. The header's member centre is
 *   in it, shown by CSS on the primary domain only (server/src/page/primary-host.ts);
 * - the other screens' first frames, which src/boot-route.ts puts on screen for their routes and
 *   the client renders over. A screen that differs on the primary domain (the download screen,
 *   Android only there) also has a frame for that domain.
 * The server sends the page in the visitor's language; a visitor whose script will pick another
 * (src/boot.ts) gets none of them and a fresh client render.
 */
import type { ReactNode } from 'react';
import { prerender } from 'react-dom/static';
import { Router } from 'wouter';
import { hashHref, paths } from '../config/paths';
import { AnnouncementsColumns } from '../features/announcements/components/announcements-screen';
import { cards, minOsFrameKey } from '../features/downloads/cards';
import { DownloadCard } from '../features/downloads/components/download-card';
import { operatingSystems } from '@chat-site/contract';
import { prerenderForHost, siteConfig } from '../config/site-config';
import { beginHydration } from '../lib/hydrated';
import { setLanguage, t, type Language } from '../lib/i18n';
import { Routes } from './app';

async function html(tree: ReactNode): Promise<string> {
  // Waits for the lazy screens' code, which renderToString would show as their fallback.
  // A screen that fails here would be left to the client; the build fails instead.
  let failure: unknown = null;
  const { prelude } = await prerender(tree, {
    onError: (error) => {
      failure ??= error;
    },
  });
  if (failure !== null) throw failure instanceof Error ? failure : new Error(String(failure));
  return new Response(prelude).text();
}

/** Makes `language` the one every following render speaks. */
export function chooseLanguage(language: Language): Promise<void> {
  return setLanguage(language);
}

/** The page's <title> in that language, naming the product (a marker the server fills in). */
export const title = (): string => t('meta.title', { product: siteConfig.productName });

/** The screen at `path` as first rendered on any host but the primary domain, or on that
 * domain when `primaryHost` says so, in the language chooseLanguage set. */
export function render(path: string, { primaryHost = false } = {}): Promise<string> {
  beginHydration();
  prerenderForHost(primaryHost ? siteConfig.primaryDomain : '');
  return html(
    <Router ssrPath={path} hrefs={hashHref}>
      <Routes />
    </Router>,
  );
}

/** Two sample rows of the announcements list as a phone shows it once loaded: the first
 * (selected, pinned) and any other (neither). The server fills copies of them with the list's
 * first rows (server/src/page/early-rows.ts), or src/early-list.ts with the early answer, to
 * draw the list before the site's script runs. */
export function renderEarlyList(): Promise<string> {
  beginHydration();
  prerenderForHost('');
  const sample = (id: string, pinned: boolean) => ({ id, title: '', content: '', pinned, createdAt: '' });
  return html(
    <Router ssrPath={paths.announcements} hrefs={hashHref}>
      <AnnouncementsColumns
        items={[sample('1', true), sample('2', false)]}
        selectedId="1"
        hrefOf={paths.announcement}
      />
    </Router>,
  );
}

/**
 * Each download card as it shows once the package list is in, with every fact it can show, for
 * each standing (none, recommended, other), keyed "platform:standing". src/early-download.ts
 * fills in a copy of each to draw the cards from the early answers before the script runs.
 */
export async function renderEarlyCards(): Promise<Record<string, string>> {
  beginHydration();
  prerenderForHost('');
  const samples: Record<string, string> = {};
  // Every platform's package with every fact, through the screen's own rules: the iOS card
  // leaves out what the App Store's install does not offer.
  const packages = operatingSystems.map((os) => ({
    os,
    downloadUrl: 'https://example.invalid/',
    version: '0',
    size: 0,
    sha256: '0'.repeat(64),
    releasedAt: '2000-01-01 00:00:00',
    releaseNotesUrl: 'https://example.invalid/',
    notes: '0',
  }));
  for (const card of cards(false, { loading: false, packages, edgeUrl: undefined })) {
    for (const standing of [undefined, 'recommended', 'other'] as const) {
      samples[`${card.platform}:${standing ?? ''}`] = await html(<DownloadCard {...card} standing={standing} />);
    }
  }
  // A release's own minimum system, framed as the card frames it.
  samples[minOsFrameKey] = t('download.minOs');
  return samples;
}
