/**
 * What `/dl/{os}` answers inside a chat app's built-in browser that would leave the download dead
 * (docs/site.md#in-app-browsers): a QR code scanned in WeChat, or a link shared there, lands
 * here rather than on the site. Instead of a redirect the app drops, a small page with the site's
 * guide: the arrow at the app's ⋯ menu, the two taps that open the page in the phone's browser,
 * and the address to copy, where the same link then downloads. No script; its words are the
 * site's guide's own.
 */
import { blocksDownload, type DownloadKind, type InAppBrowser } from '@chat-site/contract/in-app';
import { inAppGuideWords } from '@chat-site/contract/in-app-words';
import type { DownloadPlatform, Language } from '@chat-site/contract';
import { createHash } from 'node:crypto';
import { escapeAttribute, escapeXml as escape } from '../reach/xml.js';

const style =
  'body{margin:0;font:16px/1.6 system-ui,sans-serif;background:#0b1220;color:#f1f5f9}' +
  'main{max-width:440px;margin:0 auto;padding:96px 20px 40px}h1{font-size:1.375rem;margin:0 0 8px}' +
  'p{margin:0 0 16px;color:#cbd5e1}ol{padding:0;margin:24px 0;list-style:none;counter-reset:s}' +
  'li{counter-increment:s;display:flex;gap:12px;align-items:center;margin:0 0 12px;font-weight:600}' +
  'li:before{content:counter(s);display:grid;place-items:center;width:28px;height:28px;flex:none;' +
  'border-radius:50%;background:#2563eb;color:#fff;font-size:.875rem}' +
  'input{box-sizing:border-box;width:100%;font:inherit;font-size:.875rem;padding:10px 12px;border-radius:8px;' +
  'border:1px solid #334155;background:#111827;color:#f1f5f9;margin:0 0 12px}a{color:#93c5fd}' +
  'svg{position:absolute;top:8px;right:20px;width:80px;height:80px;color:#fff}' +
  '@media (prefers-color-scheme:light){body{background:#f8fafc;color:#0f172a}p{color:#334155}' +
  'input{background:#fff;color:#0f172a;border-color:#cbd5e1}a{color:#1d4ed8}svg{color:#0f172a}}';

/** The page's own policy: its one style block and nothing else, not even a script. */
export const inAppPageCsp = [
  "default-src 'none'",
  `style-src 'sha256-${createHash('sha256').update(style).digest('base64')}'`,
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** What a `/dl/{os}` target makes a visitor fetch, as the site's download links say it. */
export function downloadKindOf(os: DownloadPlatform, target: string): DownloadKind {
  if (os === 'ios') {
    if (/^https?:\/\/testflight\.apple\.com\//i.test(target)) return 'testflight';
    return /^https?:\/\/(apps|itunes)\.apple\.com\//i.test(target) ? 'app-store' : 'ios-package';
  }
  // HarmonyOS NEXT installs from its store page, as iOS from the App Store.
  return os === 'harmonyos' ? 'app-store' : 'package';
}

/** Whether `app`'s browser would leave this download dead, so the guide is answered instead. */
export const guideInstead = (app: InAppBrowser, os: DownloadPlatform, target: string): boolean =>
  blocksDownload(app, downloadKindOf(os, target));

export interface InAppPage {
  language: Language;
  /** The address to open in the phone's browser: this very /dl/{os} link. */
  address: string;
  /** iOS names Safari in the app's menu. */
  ios: boolean;
  product: string;
}

export function renderInAppPage({ language, address, ios, product }: InAppPage): string {
  const words = inAppGuideWords[language];
  const title = ios ? words.titleSafari : words.titleBrowser;
  return `<!doctype html>
<html lang="${language}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="robots" content="noindex">
<title>${escape(title)} - ${escape(product)}</title>
<style>${style}</style>
</head>
<body>
<svg aria-hidden="true" viewBox="0 0 80 80" fill="none" stroke="currentColor" stroke-width="4" stroke-linecap="round" stroke-linejoin="round"><path d="M12 74 C 20 40, 40 22, 66 12"/><path d="M48 8 L 68 11 L 60 29"/></svg>
<main>
<h1>${escape(title)}</h1>
<p>${escape(words.why)}</p>
<ol>
<li>${escape(words.stepMenu)}</li>
<li>${escape(ios ? words.stepSafari : words.stepBrowser)}</li>
</ol>
<p><label for="address">${escape(words.copyHint)}</label></p>
<input id="address" readonly value="${escapeAttribute(address)}">
<p><a href="${escapeAttribute(address)}">${escape(address)}</a></p>
</main>
</body>
</html>
`;
}
