/**
 * Old Chromium builds, as npm packages carry them for AWS Lambda, to see the site as the oldest
 * phones it serves do (docs/site.md#the-oldest-browsers-served). Each is fetched once with
 * `npm pack` (from the registry npm uses, checked against its integrity there) and unpacked into
 * node_modules/.cache/old-chromium; later runs start from there.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync } from 'node:zlib';
import puppeteer, { type Browser } from 'puppeteer-core-9';
import { repoRoot } from './server.js';

export interface OldChromium {
  /** Its major version, as its user agent says. */
  version: number;
  /** The npm package that carries it. */
  spec: string;
}

/** Android 10's first WebView (the baseline), the build the blank page was seen in, one without
 * cascade layers, and one with them but without color-mix(). */
export const oldChromiums: OldChromium[] = [
  { version: 74, spec: 'chrome-aws-lambda@1.13.0' },
  { version: 83, spec: 'chrome-aws-lambda@3.1.1' },
  { version: 90, spec: 'chrome-aws-lambda@8.0.2' },
  { version: 103, spec: '@sparticuz/chromium@103.0.0' },
];

const cacheDir = join(repoRoot, 'node_modules', '.cache', 'old-chromium');

/** The folder with `chromium` (and `aws/lib`, its libraries, where the package has them). */
function unpacked({ spec }: OldChromium): string {
  const dir = join(cacheDir, spec.replace(/[/@]/g, '_'));
  if (existsSync(join(dir, 'chromium'))) return dir;
  const work = mkdtempSync(join(tmpdir(), 'chat-site-old-chromium-'));
  try {
    const tarball = execFileSync('npm', ['pack', spec, '--silent', '--pack-destination', work], { encoding: 'utf8' });
    execFileSync('tar', ['xzf', join(work, tarball.trim()), '-C', work]);
    const bin = join(work, 'package', 'bin');
    const staging = `${dir}.partial`;
    rmSync(staging, { recursive: true, force: true });
    mkdirSync(staging, { recursive: true });
    for (const name of readdirSync(bin).filter((file) => file.endsWith('.br'))) {
      const data = brotliDecompressSync(readFileSync(join(bin, name)));
      if (name.endsWith('.tar.br')) {
        const folder = join(staging, name.replace('.tar.br', ''));
        mkdirSync(folder);
        writeFileSync(join(work, 'part.tar'), data);
        execFileSync('tar', ['xf', join(work, 'part.tar'), '-C', folder]);
      } else if (name.startsWith('chromium')) writeFileSync(join(staging, 'chromium'), data, { mode: 0o755 });
    }
    rmSync(dir, { recursive: true, force: true });
    execFileSync('mv', [staging, dir]);
    return dir;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** Starts the build, headless, with the flags these Lambda builds need on this machine. */
export async function launchOldChromium(build: OldChromium): Promise<Browser> {
  const dir = unpacked(build);
  return puppeteer.launch({
    executablePath: join(dir, 'chromium'),
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--single-process', '--no-zygote', '--lang=zh-CN'],
    env: { ...process.env, LD_LIBRARY_PATH: join(dir, 'aws', 'lib') },
  });
}
