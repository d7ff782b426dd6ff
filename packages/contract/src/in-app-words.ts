/**
 * The words of the guide shown inside a chat app's built-in browser instead of a download it
 * would leave dead (docs/site.md#in-app-browsers), in the three languages the site speaks: the
 * site's guide (a chunk of its own) and the server's page for /dl/{os} both say them. The menu
 * items are named as the apps name them.
 */
import type { Language } from './language.js';

export const inAppGuideWords = {
  'zh-CN': {
    titleBrowser: '请在浏览器中打开',
    titleSafari: '请在 Safari 中打开',
    why: '当前 App 内无法直接下载，换到浏览器中即可正常下载。',
    stepMenu: '点击右上角的 ⋯',
    stepBrowser: '选择“在浏览器中打开”',
    stepSafari: '选择“在 Safari 中打开”',
    copyHint: '也可以复制下载地址，粘贴到浏览器中打开：',
    copyLabel: '复制下载地址',
    qr: '或用手机扫码，在手机浏览器中打开下载页',
    close: '知道了',
  },
  'zh-TW': {
    titleBrowser: '請在瀏覽器中開啟',
    titleSafari: '請在 Safari 中開啟',
    why: '目前的 App 內無法直接下載，換到瀏覽器中即可正常下載。',
    stepMenu: '點擊右上角的 ⋯',
    stepBrowser: '選擇「在瀏覽器中開啟」',
    stepSafari: '選擇「在 Safari 中開啟」',
    copyHint: '也可以複製下載網址，貼到瀏覽器中開啟：',
    copyLabel: '複製下載網址',
    qr: '或用手機掃描 QR 碼，在手機瀏覽器中開啟下載頁',
    close: '知道了',
  },
  en: {
    titleBrowser: 'Open this page in your browser',
    titleSafari: 'Open this page in Safari',
    why: "This app's built-in browser can't download it. Your browser can.",
    stepMenu: 'Tap ⋯ at the top right',
    stepBrowser: 'Choose "Open in Browser"',
    stepSafari: 'Choose "Open in Safari"',
    copyHint: 'Or copy the download address and paste it into your browser:',
    copyLabel: 'Copy the download address',
    qr: 'Or scan the code with your phone to open the download page in its browser',
    close: 'Got it',
  },
} satisfies Record<Language, Record<string, string>>;

export type InAppGuideWords = (typeof inAppGuideWords)['zh-CN'];
