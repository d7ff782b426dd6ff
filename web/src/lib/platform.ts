/**
 * Which platform's download a visitor most likely wants, from what the browser says about its
 * device: the user agent, and client hints where the browser sends them.
 */
export const platforms = ['android', 'ios', 'windows', 'mac', 'harmonyos'] as const;
export type Platform = (typeof platforms)[number];

export interface DeviceSignals {
  userAgent: string;
  /** navigator.userAgentData.platform (Chromium's client hints): "Android", "Windows", "macOS"… */
  hintPlatform?: string | undefined;
  /** navigator.userAgentData.mobile */
  hintMobile?: boolean | undefined;
  maxTouchPoints: number;
}

interface UserAgentData {
  platform?: string;
  mobile?: boolean;
}

/** In the build's prerender there is no device: no platform is recommended. */
export function readDeviceSignals(
  nav: Navigator | undefined = import.meta.env.SSR ? undefined : navigator,
): DeviceSignals {
  if (nav === undefined) return { userAgent: '', maxTouchPoints: 0 };
  const hints = (nav as Navigator & { userAgentData?: UserAgentData }).userAgentData;
  return {
    userAgent: nav.userAgent,
    hintPlatform: hints?.platform,
    hintMobile: hints?.mobile,
    maxTouchPoints: nav.maxTouchPoints,
  };
}

const hintPlatforms: Record<string, Platform> = {
  android: 'android',
  harmonyos: 'harmonyos',
  openharmony: 'harmonyos',
  ios: 'ios',
  ipados: 'ios',
  windows: 'windows',
  macos: 'mac',
};

/**
 * The visitor's platform, or undefined when it is none of these (Linux, ChromeOS…).
 * HarmonyOS 2 to 4 are Android underneath and say so ("Android 12; HarmonyOS"): they install the
 * APK. HarmonyOS NEXT (5 and later) runs no Android package; its browser says "OpenHarmony" and
 * "ArkWeb" without "Android" (docs/site.md#harmonyos-next). Safari on an iPad asks for the
 * desktop site with a Mac user agent; no Mac has a touch screen, so a "Mac" with several touch
 * points is an iPad.
 */
export function detectPlatform(signals: DeviceSignals): Platform | undefined {
  const { userAgent: ua, maxTouchPoints } = signals;
  if (/Android/i.test(ua)) return 'android';
  if (/OpenHarmony|ArkWeb/i.test(ua)) return 'harmonyos';
  const hinted = hintPlatforms[(signals.hintPlatform ?? '').trim().toLowerCase()];
  const found = hinted ?? fromUserAgent(ua);
  return found === 'mac' && maxTouchPoints > 1 ? 'ios' : found;
}

function fromUserAgent(ua: string): Platform | undefined {
  if (/Android/i.test(ua)) return 'android';
  if (/iPhone|iPad|iPod/i.test(ua)) return 'ios';
  if (/Macintosh|Mac OS X/i.test(ua)) return 'mac';
  if (/Windows Phone/i.test(ua)) return undefined;
  if (/Windows/i.test(ua)) return 'windows';
  return undefined;
}

/** A computer rather than a phone or tablet: the visitor may want the app on a phone instead. */
export function isDesktop(signals: DeviceSignals): boolean {
  const platform = detectPlatform(signals);
  if (platform !== undefined) return platform === 'windows' || platform === 'mac';
  return signals.hintMobile !== true && !/Mobi|Tablet|Android|iPhone|iPad/i.test(signals.userAgent);
}

/** The platform a `?os=` value names (any case; "ipados" is iOS), or undefined. */
export function platformFromParam(value: string | null): Platform | undefined {
  const name = (value ?? '').trim().toLowerCase();
  if (name === 'ipados') return 'ios';
  return platforms.find((platform) => platform === name);
}
