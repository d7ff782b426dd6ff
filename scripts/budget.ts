/**
 * `npm run budget`: the landing page's first load in each language (asked with `?lang=`), as the
 * real server sends it to a browser that accepts brotli: the page itself, every script and
 * stylesheet it names (its language's catalog among them, docs/architecture.md#how-a-page-load-flows), and
 * every module the entry script imports statically (what the browser must fetch before the site
 * runs). Lazy chunks, images and API calls are not counted. Prints the breakdown of each; exits 1
 * when any language is over the budget.
 *
 * Build first (`npm run build`); WEB_ROOT picks another build folder. `--max-kb N` changes the
 * budget (default 85, in KiB of 1024 bytes).
 */
import { get } from 'node:http';
import { parseArgs } from 'node:util';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { entryScriptsMetaName, languages, type Language } from '@chat-site/contract';
import { startServer } from '../e2e/support/server.js';

const { values } = parseArgs({ options: { 'max-kb': { type: 'string', default: '85' } } });
const maxKb = Number(values['max-kb']);
if (!Number.isFinite(maxKb) || maxKb <= 0) {
  console.error(`--max-kb must be a positive number, got "${values['max-kb']}"`);
  process.exit(2);
}

interface Fetched {
  path: string;
  encoding: string;
  bytes: number;
  body: string;
}

/** The raw bytes on the wire (still compressed), and the body decoded only when it was sent
 * uncompressed or as brotli. */
function fetchAsBrowser(base: string, path: string): Promise<Fetched> {
  return new Promise((done, fail) => {
    get(new URL(path, base), { headers: { 'accept-encoding': 'br, gzip' } }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('error', fail);
      response.on('end', () => {
        if (response.statusCode !== 200) return fail(new Error(`${path}: HTTP ${response.statusCode}`));
        const raw = Buffer.concat(chunks);
        const encoding = response.headers['content-encoding'] ?? 'identity';
        const decoded = encoding === 'br' ? brotliDecompressSync(raw) : encoding === 'gzip' ? gunzipSync(raw) : raw;
        done({ path, encoding, bytes: raw.byteLength, body: decoded.toString('utf8') });
      });
    }).on('error', fail);
  });
}

const attr = (tag: string, name: string) => new RegExp(`\\b${name}="([^"]+)"`).exec(tag)?.[1];

/** Scripts, module preloads and stylesheets the page names in its markup, and the scripts its
 * boot script starts after the first paint (<meta name="entry-scripts">). */
function pageAssets(html: string): string[] {
  const tags = html.match(/<(?:script|link|meta)\b[^>]*>/g) ?? [];
  return tags.flatMap((tag) => {
    if (tag.startsWith('<meta'))
      return attr(tag, 'name') === entryScriptsMetaName ? (attr(tag, 'content')?.split(' ') ?? []) : [];
    if (tag.startsWith('<script')) return attr(tag, 'src') ?? [];
    const rel = attr(tag, 'rel');
    return rel === 'stylesheet' || rel === 'modulepreload' ? (attr(tag, 'href') ?? []) : [];
  });
}

/** The static imports of a built module (`import … from "./x.js"`, `import "./x.js"`), not the
 * dynamic `import("…")` of the lazy chunks. */
function staticImports(code: string, from: string): string[] {
  const found = code.matchAll(/\bimport\s*(?:[\w$*{}\s,]+?\s*from\s*)?["']([^"']+\.js)["']/g);
  return [...found].map((match) => new URL(match[1] ?? '', new URL(from, 'http://x')).pathname);
}

/** Everything the first load of the landing page in `language` fetches. */
async function firstLoad(base: string, language: Language): Promise<Fetched[]> {
  const page = await fetchAsBrowser(base, `/?lang=${language}`);
  const lang = /<html lang="([^"]+)"/.exec(page.body)?.[1];
  if (lang !== language) throw new Error(`/?lang=${language} answered a page in ${lang ?? 'no language'}`);
  const loaded = [page];
  const queue = pageAssets(page.body);
  const seen = new Set<string>([page.path]);
  while (queue.length > 0) {
    const path = queue.shift() as string;
    if (seen.has(path)) continue;
    seen.add(path);
    const asset = await fetchAsBrowser(base, path);
    loaded.push(asset);
    if (path.endsWith('.js')) queue.push(...staticImports(asset.body, path));
  }
  return loaded;
}

const server = await startServer();
try {
  const kb = (bytes: number) => (bytes / 1024).toFixed(1).padStart(6);
  const totals: string[] = [];
  for (const language of languages) {
    const loaded = await firstLoad(server.url, language);
    const total = loaded.reduce((sum, asset) => sum + asset.bytes, 0);
    console.log(`Landing page first load in ${language}, as served:`);
    for (const asset of loaded) console.log(`  ${kb(asset.bytes)} KB  ${asset.encoding.padEnd(8)} ${asset.path}`);
    console.log(`  ${kb(total)} KB  total (budget ${maxKb} KB, ${maxKb * 1024 - total} bytes left)`);
    const uncompressed = loaded.filter((asset) => asset.encoding === 'identity' && asset.bytes >= 1024);
    for (const asset of uncompressed) console.log(`  warning: ${asset.path} is sent uncompressed`);
    totals.push(`${language} ${kb(total).trim()} KB`);
    if (total > maxKb * 1024) {
      console.error(`FAIL: the first load in ${language} is ${kb(total).trim()} KB, over the ${maxKb} KB budget`);
      process.exitCode = 1;
    }
  }
  console.log(`First loads: ${totals.join(', ')} (budget ${maxKb} KB each)`);
} finally {
  await server.stop();
}
