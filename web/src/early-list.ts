/**
 * The announcements list, drawn on a phone from the early API answer before the site's script
 * runs, so a slow network shows the titles from its first seconds rather than after React. Only
 * where the site's API is another server: otherwise the server wrote the first rows into the page
 * (server/src/page/early-rows.ts) and boot-route.ts does not load this.
 *
 * src/boot-route.ts loads this small script (its own build, web/build/prerender.ts) on the
 * announcements screen beside the early calls. It reads the answer with the site's own reader
 * (readBulletinList) and dates (formatDate), and draws with the site's own markup: the build puts
 * two sample rows beside the screen's frame (src/app/prerender.tsx, renderEarlyList: the first
 * row selected and pinned, the other neither), and this fills in a copy of one per announcement.
 * It draws nothing (the script will) when the answer failed or holds no announcement, or the
 * script already runs, or the visitor has left the screen or picked another language. It then
 * tells boot-route.ts, which starts the script once the list is on screen; the script renders
 * behind it until its own list is ready (src/main.tsx).
 */
import {
  earlyListAttribute,
  earlyListTiming,
  earlyRowsAttribute,
  fieldAttribute,
  formatDate,
  loadingAttribute,
  prerenderOffClass,
  readBulletinList,
  rootId,
  runningAttribute,
} from '@chat-site/contract';
import { hashHref, paths } from './config/paths';
import { earlyAnswers, type EarlyAnswers } from './lib/early-answers';
import { routePath } from './lib/route-path';

const root = document.documentElement;
const field = (row: ParentNode, name: string) => row.querySelector(`[${fieldAttribute}="${name}"]`);

async function draw(early: EarlyAnswers): Promise<void> {
  const data = await early.data;
  if (!data?.ok) return;
  const items = readBulletinList(await data.clone().json());
  const app = document.getElementById(rootId);
  const rows = app?.querySelector<HTMLTemplateElement>(`template[${earlyRowsAttribute}]`);
  const loading = app?.querySelector(`[${loadingAttribute}]`);
  // Nor once the visitor has left the screen or picked another language: the script is on its
  // way (boot-route.ts started it) and renders that.
  const left = routePath() !== paths.announcements || root.classList.contains(prerenderOffClass);
  if (!rows || !loading || items.length === 0 || left || root.hasAttribute(runningAttribute)) return;
  const view = rows.content.cloneNode(true) as DocumentFragment;
  const [first, other] = view.querySelectorAll('li');
  const pinned = first && field(first, 'pinned');
  if (!other || !pinned) return;
  const made = items.map((item, index) => {
    const row = (index === 0 ? first : other).cloneNode(true) as Element;
    const mark = field(row, 'pinned');
    const title = field(row, 'title');
    if (item.pinned && !mark) title?.before(pinned.cloneNode(true));
    if (!item.pinned) mark?.remove();
    if (title) title.textContent = item.title;
    const date = field(row, 'date');
    // In the language the page was prerendered in, which is the visitor's (or prerender-off).
    if (date) date.textContent = formatDate(item.createdAt, root.lang);
    row.querySelector('a')?.setAttribute('href', hashHref(paths.announcement(item.id)));
    return row;
  });
  // boot-route.ts starts the script once the browser reports this title painted.
  field(made[0] as Element, 'title')?.setAttribute('elementtiming', earlyListTiming);
  // Not replaceChildren (Chromium 86, Safari 14): this runs before any added built-in.
  const list = first.parentNode;
  if (list) {
    list.textContent = '';
    list.append(...made);
  }
  loading.replaceWith(view);
  root.setAttribute(earlyListAttribute, paths.announcements);
}

const early = earlyAnswers();
if (early !== undefined) {
  draw(early)
    // Whatever went wrong is the script's to meet and report, with its own copy of the answer.
    .catch(() => undefined)
    .finally(() => early.drawn?.());
}
