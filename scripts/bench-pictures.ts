/**
 * `npm run bench:pictures`: what drawing share pictures costs, in this process (the same code the
 * server runs, without HTTP). Figures:
 * - cold: the first picture, loading satori, resvg and the font slices it needs;
 * - warm: each next picture of a title not drawn before (median and slowest), Chinese and English;
 * - cached: the same picture asked for again, from the store;
 * - memory: resident memory before the first picture, after it, and after them all.
 * BENCH_PICTURES changes how many warm pictures are drawn.
 */
import { announcementCard, siteCard } from '../server/src/reach/picture/card.js';
import { renderPng } from '../server/src/reach/picture/render.js';
import { PictureStore } from '../server/src/reach/picture/store.js';
import { intFromEnv, writeResults } from './bench-support.js';

const count = intFromEnv('BENCH_PICTURES', 20, 2, 1000);
const mb = (bytes: number) => Math.round((bytes / 1024 / 1024) * 10) / 10;
const ms = (from: number) => Math.round((performance.now() - from) * 10) / 10;

/** Titles of different characters, so each warm picture loads some font slices of its own. */
const chinese = [
  '春节期间客服时间调整通知',
  '服务器维护公告：本周六凌晨',
  '新版本上线，欢迎下载体验',
  '关于账号安全的重要提醒',
];
const titles = Array.from({ length: count }, (_, n) =>
  n % 2 === 0 ? `${chinese[(n / 2) % chinese.length]} 第 ${n} 期` : `Release notes for version ${n}.0: faster chats`,
);

const store = new PictureStore({ draw: renderPng, maxBytes: 64 * 1024 * 1024, maxWaiting: count + 1 });
const rssBefore = process.memoryUsage().rss;

let start = performance.now();
const first = await store.picture(siteCard('星聊', '让世界更近，让沟通更有价值'));
const cold = ms(start);
const rssAfterFirst = process.memoryUsage().rss;

const warm: number[] = [];
let bytes = first.length;
for (const title of titles) {
  start = performance.now();
  bytes += (await store.picture(announcementCard(title, '2026-11-26', '星聊'))).length;
  warm.push(ms(start));
}
start = performance.now();
await store.picture(announcementCard(titles[0] ?? '', '2026-11-26', '星聊'));
const cached = ms(start);

const sorted = [...warm].sort((a, b) => a - b);
const results = {
  pictures: count + 1,
  coldMs: cold,
  warmMedianMs: sorted[Math.floor(sorted.length / 2)],
  warmSlowestMs: sorted.at(-1),
  cachedMs: cached,
  averagePngKB: Math.round(bytes / (count + 1) / 1024),
  rssMB: { before: mb(rssBefore), afterFirst: mb(rssAfterFirst), afterAll: mb(process.memoryUsage().rss) },
};
console.log(results);
console.log(`written to ${writeResults('bench-pictures', results)}`);
