/**
 * `npm run bench:convert`: what the traditional Chinese of announcements costs
 * (docs/behaviour.md#announcements-in-every-language). In this process: the time to convert a
 * 20 KB announcement body (text, links, pictures, code), the first conversion (which loads
 * OpenCC's dictionaries) apart from the best of BENCH_ROUNDS later ones (default 5), and the
 * memory the converter adds once loaded, the HTML parser having been loaded before. Then a
 * built server (one process): its resident memory at rest, after reads, and after the first
 * save, which loads the sanitiser, the parser and the converter.
 * Results also go to .tmp/bench-convert.json, or to the file BENCH_RESULTS names.
 */
import { htmlText } from '../server/src/lib/html-text.js';
import { traditionalHtml } from '../server/src/lib/chinese-scripts.js';
import { intFromEnv, machineFacts, round, RssSampler, startBenchServer, writeResults } from './bench-support.js';

const rounds = intFromEnv('BENCH_ROUNDS', 5, 1, 50);
const mb = (bytes: number) => round(bytes / 1024 / 1024);

/** About 20 KB of UTF-8, written the way announcements are. */
function body(): string {
  const paragraph =
    '<p>新版软件已经发布，请在<a href="https://example.com/download?from=信息">下载页面</a>获取安装包。' +
    '更新后网络连接更稳定，鼠标和打印机的设置信息会自动保留。</p>' +
    '<p><img src="file/preview/0123456789abcdef-banner.png" alt="软件截图"></p>' +
    '<pre><code>npm install 软件 --save</code></pre>';
  let html = '';
  while (Buffer.byteLength(html) < 20 * 1024) html += paragraph;
  return html;
}

const html = body();
htmlText(html); // the parser is loaded before, as on a server that has saved anything
const before = process.memoryUsage();
let started = performance.now();
traditionalHtml(html);
const firstMs = performance.now() - started;
const after = process.memoryUsage();
let bestMs = Infinity;
for (let round = 0; round < rounds; round++) {
  started = performance.now();
  traditionalHtml(html);
  bestMs = Math.min(bestMs, performance.now() - started);
}

const server = await startBenchServer();
let serverRss: { atRest: number; afterReads: number; afterFirstSave: number };
try {
  const rss = new RssSampler(server.pid);
  const atRest = rss.read();
  for (let n = 0; n < 20; n++) await (await fetch(`${server.url}/v1/bulletin/page?lang=zh-TW`)).arrayBuffer();
  const afterReads = rss.read();
  const saved = await fetch(`${server.url}/v1/admin/bulletins`, {
    method: 'POST',
    headers: { authorization: `Bearer ${server.adminToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({ title: '软件更新信息', content: html }),
  });
  if (saved.status !== 201) throw new Error(`the save answered ${saved.status}: ${await saved.text()}`);
  serverRss = { atRest, afterReads, afterFirstSave: rss.read() };
} finally {
  await server.stop();
}

const results = {
  bodyBytes: Buffer.byteLength(html),
  firstConversionMs: round(firstMs),
  conversionMs: round(bestMs, 2),
  converterHeapMb: mb(after.heapUsed - before.heapUsed),
  converterRssMb: mb(after.rss - before.rss),
  serverRssMb: {
    atRest: mb(serverRss.atRest),
    afterReads: mb(serverRss.afterReads),
    afterFirstSave: mb(serverRss.afterFirstSave),
  },
};
const machine = machineFacts();
console.log(
  `bench:convert: best of ${rounds} round(s), Node ${process.version}, load ${machine.loadAverageAtStart.join(' ')}`,
);
console.log(
  `  ${results.bodyBytes}-byte body: first ${results.firstConversionMs} ms (loads OpenCC), then ${results.conversionMs} ms`,
);
console.log(`  the converter loaded: +${results.converterHeapMb} MB heap, +${results.converterRssMb} MB resident`);
console.log(
  `  server (one process): ${results.serverRssMb.atRest} MB at rest, ${results.serverRssMb.afterReads} MB after reads,` +
    ` ${results.serverRssMb.afterFirstSave} MB after the first save`,
);
console.log(`results: ${writeResults('bench-convert', { machine, rounds, results })}`);
