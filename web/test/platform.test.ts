import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  detectPlatform,
  isDesktop,
  platformFromParam,
  readDeviceSignals,
  type DeviceSignals,
  type Platform,
} from '../src/lib/platform';

const ua = {
  androidPhone: 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 Chrome/126.0 Mobile Safari/537.36',
  iphone: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148',
  ipad: 'Mozilla/5.0 (iPad; CPU OS 17_5 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148',
  mac: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 Version/17.5 Safari/605.1.15',
  windows: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 Chrome/126.0 Safari/537.36',
  windowsPhone: 'Mozilla/5.0 (compatible; MSIE 10.0; Windows Phone 8.0; Trident/6.0; IEMobile/10.0; NOKIA; Lumia 920)',
  linux: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/126.0 Safari/537.36',
  linuxPhone: 'Mozilla/5.0 (Linux; U; Ubuntu Touch) AppleWebKit/537.36 Mobile Safari/537.36',
  // HarmonyOS NEXT's browser, and HarmonyOS 4's (Android underneath, and it says so).
  harmonyNext:
    'Mozilla/5.0 (Phone; OpenHarmony 5.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/114.0.0.0 Safari/537.36 ArkWeb/4.1.6.1 Mobile HuaweiBrowser/5.0.4.300',
  harmony4:
    'Mozilla/5.0 (Linux; Android 12; HarmonyOS; ALN-AL00; HMSCore 6.13.0.302) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/99.0.4844.88 HuaweiBrowser/14.0.5.302 Mobile Safari/537.36',
} as const;

const signals = (userAgent: string, more: Partial<DeviceSignals> = {}): DeviceSignals => ({
  userAgent,
  maxTouchPoints: 0,
  ...more,
});

describe('detectPlatform', () => {
  const cases: [string, DeviceSignals, Platform | undefined][] = [
    ['an Android phone', signals(ua.androidPhone, { maxTouchPoints: 5 }), 'android'],
    ['an iPhone', signals(ua.iphone, { maxTouchPoints: 5 }), 'ios'],
    ['an iPad', signals(ua.ipad, { maxTouchPoints: 5 }), 'ios'],
    ['an iPad asking for the desktop site (a Mac with touch)', signals(ua.mac, { maxTouchPoints: 5 }), 'ios'],
    ['a Mac', signals(ua.mac), 'mac'],
    ['a Windows PC', signals(ua.windows), 'windows'],
    ['a Windows phone (none of the four)', signals(ua.windowsPhone), undefined],
    ['Linux (none of the four)', signals(ua.linux), undefined],
    ['HarmonyOS NEXT, which runs no Android package', signals(ua.harmonyNext), 'harmonyos'],
    ['HarmonyOS NEXT with its client hint', signals(ua.harmonyNext, { hintPlatform: 'HarmonyOS' }), 'harmonyos'],
    ['HarmonyOS 4, Android underneath', signals(ua.harmony4, { maxTouchPoints: 5 }), 'android'],
    [
      'HarmonyOS 4 hinting HarmonyOS still says Android',
      signals(ua.harmony4, { hintPlatform: 'HarmonyOS' }),
      'android',
    ],
    ['an empty user agent', signals(''), undefined],
  ];
  for (const [name, given, expected] of cases) {
    test(`${name}: ${String(expected)}`, () => assert.equal(detectPlatform(given), expected));
  }

  test('a client hint wins over the user agent, in any case and spacing', () => {
    assert.equal(detectPlatform(signals(ua.linux, { hintPlatform: ' Windows ' })), 'windows');
    assert.equal(detectPlatform(signals(ua.windows, { hintPlatform: 'ANDROID' })), 'android');
    assert.equal(detectPlatform(signals(ua.linux, { hintPlatform: 'macOS', maxTouchPoints: 5 })), 'ios');
  });

  test('an unknown hint falls back to the user agent', () => {
    assert.equal(detectPlatform(signals(ua.mac, { hintPlatform: 'Chrome OS' })), 'mac');
    assert.equal(detectPlatform(signals(ua.linux, { hintPlatform: 'Linux' })), undefined);
  });
});

describe('isDesktop', () => {
  test('Windows and Mac are computers; Android and iOS are not', () => {
    assert.equal(isDesktop(signals(ua.windows)), true);
    assert.equal(isDesktop(signals(ua.mac)), true);
    assert.equal(isDesktop(signals(ua.androidPhone)), false);
    assert.equal(isDesktop(signals(ua.mac, { maxTouchPoints: 5 })), false, 'an iPad in desktop mode');
    assert.equal(isDesktop(signals(ua.harmonyNext)), false, 'a HarmonyOS NEXT phone');
  });

  test('another system is a computer unless it says it is mobile', () => {
    assert.equal(isDesktop(signals(ua.linux)), true);
    assert.equal(isDesktop(signals(ua.linuxPhone)), false);
    assert.equal(isDesktop(signals(ua.linux, { hintMobile: true })), false);
  });
});

describe('platformFromParam', () => {
  for (const [value, expected] of [
    ['android', 'android'],
    ['iOS', 'ios'],
    ['ipados', 'ios'],
    [' MAC ', 'mac'],
    ['Windows', 'windows'],
    ['HarmonyOS', 'harmonyos'],
    ['linux', undefined],
    ['', undefined],
    [null, undefined],
  ] as const) {
    test(`${JSON.stringify(value)}: ${String(expected)}`, () => assert.equal(platformFromParam(value), expected));
  }
});

describe('readDeviceSignals', () => {
  test('reads the user agent, touch points and client hints of a navigator', () => {
    const nav = { userAgent: ua.mac, maxTouchPoints: 5, userAgentData: { platform: 'macOS', mobile: false } };
    assert.deepEqual(readDeviceSignals(nav as unknown as Navigator), {
      userAgent: ua.mac,
      hintPlatform: 'macOS',
      hintMobile: false,
      maxTouchPoints: 5,
    });
  });

  test('a browser without client hints leaves them undefined', () => {
    const nav = { userAgent: ua.iphone, maxTouchPoints: 5 };
    const read = readDeviceSignals(nav as unknown as Navigator);
    assert.equal(read.hintPlatform, undefined);
    assert.equal(read.hintMobile, undefined);
  });
});
