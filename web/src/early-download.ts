/**
 * The download screen's cards, drawn from the early API answers before the site's script runs,
 * so a phone on a slow network can download from the first seconds rather than after React.
 *
 * src/boot-route.ts loads this small script (its own build, web/build/prerender.ts) on the
 * download screen beside the early calls. It decides with the site's own code
 * (features/downloads/cards.ts: which cards, their links, their order for this visitor, their facts) and draws with the site's own markup: the
 * build renders DownloadCard once per platform and standing, with every fact, into
 * __EARLY_CARDS__, and this fills in a copy of each. It draws nothing (the script will) when:
 * - an answer failed or is not a package list;
 * - a card would have no working link (no package for its platform, or no http(s) address);
 * - off the primary domain, the edge service is configured (its answer is the script's to ask
 *   for);
 * - the operator has set store pages, or the visitor has HarmonyOS NEXT (the build renders no
 *   sample of either);
 * - the script already runs, or the visitor has left the screen or picked another language.
 * It then tells boot-route.ts, which starts the script once the cards are on screen; the script
 * renders behind them until its own cards are ready (src/main.tsx).
 */
import {
  downloadKindAttribute,
  earlyListAttribute,
  earlyListTiming,
  fieldAttribute,
  inAppTapAttribute,
  platformAttribute,
  prerenderOffClass,
  readAppConfig,
  readInstallPackages,
  readJsonOrText,
  resolveDownloadUrl,
  rootId,
  runningAttribute,
} from '@chat-site/contract';
import { blocksDownload, inAppBrowser, type DownloadKind } from '@chat-site/contract/in-app';
import { isPrimaryHost, siteConfig } from './config/site-config';
import { readSiteStores } from './config/site-stores';
import {
  cards,
  hashLines,
  minOsFrameKey,
  packageFacts,
  ranked,
  type Card,
  type PackageFacts,
} from './features/downloads/cards';
import { paths } from './config/paths';
import { apiCalls } from './lib/api-calls';
import { downloadBase } from './lib/download-base';
import { earlyAnswers, type EarlyAnswers } from './lib/early-answers';
import { routePath } from './lib/route-path';
import { detectPlatform, platformFromParam, readDeviceSignals } from './lib/platform';

declare const __EARLY_CARDS__: Record<string, string>;

const root = document.documentElement;

/** The body of the early answer to the call ending in `path`, without taking it from the script
 * (which reads its own copy), or undefined. */
async function bodyOf(early: EarlyAnswers, path: string): Promise<unknown> {
  const url = Object.keys(early.answers).find((key) => key.endsWith(`/v1/${path}`));
  const response = url === undefined ? undefined : await early.answers[url]?.answer;
  if (response === undefined || !response.ok) return undefined;
  return response.clone().json();
}

/** The card for `card` from its sample, or null when it would have no working link. */
function drawCard(card: Card): Element | null {
  const href = card.link.href;
  const sample = __EARLY_CARDS__[`${card.platform}:${card.standing ?? ''}`];
  if (href === undefined || !/^https?:\/\//i.test(href) || sample === undefined) return null;
  const template = document.createElement('template');
  template.innerHTML = sample;
  const item = template.content.firstElementChild;
  const field = (name: string) => item?.querySelector(`[${fieldAttribute}="${name}"]`) ?? null;
  if (item === null) return null;
  field('button')?.setAttribute('href', href);
  const facts: PackageFacts = card.details === undefined ? {} : packageFacts(card.details);
  for (const name of ['version', 'size', 'released'] as const) {
    const value = facts[name];
    const row = field(name);
    if (value === undefined) row?.remove();
    else if (row?.lastElementChild) row.lastElementChild.textContent = value;
  }
  const rows = item.querySelector(`[${fieldAttribute}="details"] dl`);
  if (rows !== null && rows.childElementCount === 0) rows.remove();
  // Its copy button shows once the script, which answers it, has taken over.
  field('sha256')?.querySelector('button')?.classList.add('invisible');
  const lines = field('sha256')?.querySelectorAll('code > span') ?? [];
  if (facts.sha256 === undefined) field('sha256')?.remove();
  else
    hashLines(facts.sha256).forEach((line, index) => {
      const box = lines[index];
      if (box) box.textContent = line;
    });
  const minOs = facts.minOs;
  const frame = __EARLY_CARDS__[minOsFrameKey];
  const subtitle = field('min-os');
  if (minOs !== undefined && frame !== undefined && subtitle)
    subtitle.textContent = frame.replace('{minOs}', () => minOs);
  const notes = field('notes-text');
  if (facts.notes === undefined) notes?.remove();
  else if (notes?.firstElementChild) notes.firstElementChild.textContent = facts.notes;
  // The English sample says the notes are in Chinese, as an answer that does not say means.
  if (facts.notesLanguage === 'en') field('notes-lang')?.remove();
  if (facts.notesUrl === undefined) field('notes')?.remove();
  else field('notes')?.setAttribute('href', facts.notesUrl);
  if (Object.keys(facts).every((name) => name === 'minOs')) field('details')?.remove();
  return item;
}

async function draw(early: EarlyAnswers): Promise<void> {
  const primary = isPrimaryHost();
  if (!primary && siteConfig.androidEdgeUrl !== undefined) return;
  const data = await early.data;
  if (!data?.ok || root.hasAttribute(runningAttribute)) return;
  const [packagesBody, configBody] = await Promise.all([
    // Bare text that is no JSON is kept as text, as getJsonOrText keeps it.
    data.clone().text().then(readJsonOrText),
    // The config failing means no CDN, as for the script (init-api.ts): readAppConfig says so.
    bodyOf(early, apiCalls.appConfig).catch(() => undefined),
  ]);
  const cdn = readAppConfig(configBody);
  const base = downloadBase();
  const packages = readInstallPackages(packagesBody).map((entry) => ({
    ...entry,
    downloadUrl: resolveDownloadUrl(entry.downloadUrl, { base, cdn }),
  }));
  const requested = platformFromParam(new URLSearchParams(location.hash.split('?')[1] ?? '').get('os'));
  const device = readDeviceSignals();
  const platform = requested ?? detectPlatform(device);
  const pages = readSiteStores();
  if (platform === 'harmonyos' || pages.harmonyos !== undefined || pages.stores !== undefined) return;
  const list = ranked(cards(primary, { loading: false, packages, edgeUrl: undefined }), platform);
  const drawn = list.map(drawCard);
  const shown = document.querySelector(`#${rootId} li[${platformAttribute}]`)?.parentElement;
  // Nor once the visitor has left the screen or picked another language: the script is on its
  // way (boot-route.ts started it) and renders that.
  const left = routePath() !== paths.download || root.classList.contains(prerenderOffClass);
  if (drawn.includes(null) || !shown || left || root.hasAttribute(runningAttribute)) return;
  // Not replaceChildren (Chromium 86, Safari 14): this runs before any added built-in.
  shown.textContent = '';
  shown.append(...(drawn as Element[]));
  root.setAttribute(earlyListAttribute, paths.download);
  // boot-route.ts starts the script once the browser reports this title painted; below the fold
  // it is not painted, and the script starts at once.
  const title = drawn[0]?.querySelector('h2');
  if (title && title.getBoundingClientRect().top < window.innerHeight)
    title.setAttribute('elementtiming', earlyListTiming);
}

// Inside a chat app's built-in browser, a tap on a drawn card the app would leave dead is the
// guide's to answer (docs/site.md#in-app-browsers): it is kept on the page root, where the
// script takes it as it starts, and from then on the script's own listener answers, taking it off.
const inApp = inAppBrowser(navigator.userAgent);
if (inApp !== undefined)
  document.addEventListener(
    'click',
    (event) => {
      const link = (event.target as Element | null)?.closest?.(`a[${downloadKindAttribute}]`);
      const kind = link?.getAttribute(downloadKindAttribute) as DownloadKind | undefined;
      if (!(link instanceof HTMLAnchorElement) || !kind || !blocksDownload(inApp, kind)) return;
      event.preventDefault();
      root.setAttribute(inAppTapAttribute, `${kind} ${link.href}`);
    },
    true,
  );

const early = earlyAnswers();
if (early !== undefined) {
  draw(early)
    // Whatever went wrong is the script's to meet and report, with its own copy of the answers.
    .catch(() => undefined)
    .finally(() => early.drawn?.());
}
