/**
 * The chat and social apps whose built-in browsers open the links shared in them, known by what
 * they add to the user agent, and which downloads each lets through (docs/site.md#in-app-browsers).
 * One module for the page's boot script, the site's script and the server's counting: kept
 * small, as the boot script is written into every page.
 */
export const inAppBrowsers = ['wecom', 'wechat', 'qq', 'weibo', 'dingtalk', 'douyin', 'alipay'] as const;
export type InAppBrowser = (typeof inAppBrowsers)[number];

/** One group per app, in the order above: WeCom's agent names WeChat too. QQ's is " QQ/8.9…",
 * never QQ Browser's "MQQBrowser/"; Douyin says aweme, TikTok trill or musical_ly, both on
 * ByteDance's web view. */
const signatures =
  /(wxwork\/)|(MicroMessenger\/)|( QQ\/\d)|(__weibo__)|(DingTalk\/)|(aweme|trill_|musical_ly|BytedanceWebview\/)|(AlipayClient\/)/i;

/** The app whose built-in browser sent `userAgent`, or undefined for any other browser. */
export function inAppBrowser(userAgent: string): InAppBrowser | undefined {
  const match = signatures.exec(userAgent);
  return match ? inAppBrowsers[match.slice(1).findIndex(Boolean)] : undefined;
}

/** What a download link fetches: a file (an APK, an installer); an App Store page; TestFlight,
 * whose steps go on in its own app; the address the iOS tutorial installs from. */
export const downloadKinds = ['package', 'app-store', 'testflight', 'ios-package'] as const;
export type DownloadKind = (typeof downloadKinds)[number];

/** Whether `app`'s browser leaves a tap on a `kind` link dead, as known today: none fetches a
 * file or hands TestFlight its links; Douyin and TikTok open no App Store page either. */
export const blocksDownload = (app: InAppBrowser, kind: DownloadKind): boolean =>
  kind !== 'app-store' || app === 'douyin';
