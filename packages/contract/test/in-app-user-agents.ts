/**
 * User agents as the apps' built-in browsers send them (collected from the apps and from public
 * user-agent listings), and ordinary browsers that must never be taken for one. Shared by the
 * detection's unit test and the guide's browser test (e2e/in-app-guide.test.ts).
 */
import type { InAppBrowser } from '../src/in-app.js';

export interface InAppAgent {
  app: InAppBrowser;
  os: 'android' | 'ios';
  name: string;
  userAgent: string;
}

export const inAppAgents: InAppAgent[] = [
  {
    app: 'wechat',
    os: 'android',
    name: 'WeChat 8.0 on Android (XWEB)',
    userAgent:
      'Mozilla/5.0 (Linux; Android 13; V2244A Build/TP1A.220624.014; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/111.0.5563.116 Mobile Safari/537.36 XWEB/1110017 MMWEBSDK/20230805 MMWEBID/2585 MicroMessenger/8.0.42.2460(0x28002A35) WeChat/arm64 Weixin NetType/WIFI Language/zh_CN ABI/arm64',
  },
  {
    app: 'wechat',
    os: 'ios',
    name: 'WeChat 8.0 on iOS',
    userAgent:
      'Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 MicroMessenger/8.0.43(0x18002b2d) NetType/WIFI Language/zh_CN',
  },
  {
    app: 'wecom',
    os: 'android',
    name: 'WeCom on Android (TBS)',
    userAgent:
      'Mozilla/5.0 (Linux; Android 10; HMA-AL00 Build/HUAWEIHMA-AL00; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/77.0.3865.120 MQQBrowser/6.2 TBS/045413 Mobile Safari/537.36 wxwork/3.1.0 MicroMessenger/7.0.1 NetType/WIFI Language/zh ColorScheme/Light',
  },
  {
    app: 'wecom',
    os: 'ios',
    name: 'WeCom on iOS',
    userAgent:
      'Mozilla/5.0 (iPhone; CPU iPhone OS 16_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 wxwork/4.1.10 MicroMessenger/7.0.1 Language/zh ColorScheme/Light',
  },
  {
    app: 'qq',
    os: 'android',
    name: 'QQ on Android (TBS)',
    userAgent:
      'Mozilla/5.0 (Linux; Android 12; PFDM00 Build/SP1A.210812.016; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/89.0.4389.72 MQQBrowser/6.2 TBS/046237 Mobile Safari/537.36 V1_AND_SQ_8.9.58_4108_YYB_D A_8095800 QQ/8.9.58.11050 NetType/WIFI WebP/0.3.0 AppId/537163098 Pixel/1080 StatusBarHeight/110 SimpleUISwitch/0 QQTheme/1000 StudyMode/0 CurrentMode/0 CurrentFontScale/1.0 GlobalDensityScale/0.9818182 AllowLandscape/false InMagicWin/0',
  },
  {
    app: 'qq',
    os: 'ios',
    name: 'QQ on iOS',
    userAgent:
      'Mozilla/5.0 (iPhone; CPU iPhone OS 16_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 QQ/8.9.68.619 V1_IPH_SQ_8.9.68_1_APP_A Pixel/1170 MiniAppEnable SimpleUISwitch/0 StudyMode/0 CurrentMode/0 CurrentFontScale/1.000000 QQTheme/1000 Core/WKWebView Device/Apple(iPhone 13) NetType/WIFI QBWebViewType/1 WKType/1',
  },
  {
    app: 'weibo',
    os: 'android',
    name: 'Weibo on Android',
    userAgent:
      'Mozilla/5.0 (Linux; Android 11; M2012K11AC Build/RKQ1.200826.002; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/90.0.4430.210 Mobile Safari/537.36 Weibo (Xiaomi-M2012K11AC__weibo__12.5.0__android__android11)',
  },
  {
    app: 'weibo',
    os: 'ios',
    name: 'Weibo on iOS',
    userAgent:
      'Mozilla/5.0 (iPhone; CPU iPhone OS 15_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 Weibo (iPhone14,2__weibo__12.6.2__iphone__os15.5)',
  },
  {
    app: 'dingtalk',
    os: 'android',
    name: 'DingTalk on Android',
    userAgent:
      'Mozilla/5.0 (Linux; U; Android 11; zh-CN; M2102K1C Build/RKQ1.201112.002) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/69.0.3497.100 UWS/3.22.2.9 Mobile Safari/537.36 AliApp(DingTalk/6.5.20) com.alibaba.android.rimet/25011474 Channel/227200 language/zh-CN abi/64 UT4Aplus/0.2.25 colorScheme/light',
  },
  {
    app: 'dingtalk',
    os: 'ios',
    name: 'DingTalk on iOS',
    userAgent:
      'Mozilla/5.0 (iPhone; CPU iPhone OS 15_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 AliApp(DingTalk/6.5.30) com.laiwang.DingTalk/27198917 Channel/201200 language/zh-Hans-CN UT4Aplus/0.0.6 WK',
  },
  {
    app: 'douyin',
    os: 'android',
    name: 'Douyin on Android',
    userAgent:
      'Mozilla/5.0 (Linux; Android 12; V2055A Build/SP1A.210812.003; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/91.0.4472.114 Mobile Safari/537.36 aweme_230400 JsSdk/1.0 NetType/WIFI Channel/vivo_1128_64 AppName/aweme app_version/23.4.0 ByteLocale/zh-CN Region/CN AppSkin/white AppTheme/light BytedanceWebview/d8a21c6 WebView/075113004008',
  },
  {
    app: 'douyin',
    os: 'ios',
    name: 'Douyin on iOS',
    userAgent:
      'Mozilla/5.0 (iPhone; CPU iPhone OS 16_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 aweme_23.5.0 JsSdk/2.0 NetType/WIFI Channel/App Store ByteLocale/zh Region/CN AppTheme/light RevealType/Dialog isDarkMode/0 WKWebView/1 BytedanceWebview/d8a21c6',
  },
  {
    app: 'douyin',
    os: 'android',
    name: 'TikTok on Android',
    userAgent:
      'Mozilla/5.0 (Linux; Android 14; Pixel 7 Build/UP1A.231005.007; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/125.0.0.0 Mobile Safari/537.36 trill_340002 JsSdk/1.0 NetType/WIFI Channel/googleplay AppName/musical_ly app_version/34.0.2 ByteLocale/en ByteFullLocale/en Region/US BytedanceWebview/d8a21c6',
  },
  {
    app: 'douyin',
    os: 'ios',
    name: 'TikTok on iOS',
    userAgent:
      'Mozilla/5.0 (iPhone; CPU iPhone OS 17_2 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 musical_ly_34.0.0 JsSdk/2.0 NetType/WIFI Channel/App Store ByteLocale/en Region/US',
  },
  {
    app: 'alipay',
    os: 'android',
    name: 'Alipay on Android',
    userAgent:
      'Mozilla/5.0 (Linux; U; Android 11; zh-CN; M2012K10C Build/RP1A.200720.011) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/69.0.3497.100 UWS/3.22.2.59 Mobile Safari/537.36 UCBS/3.22.2.59_230213152242 NebulaSDK/1.8.100112 Nebula AlipayDefined(nt:WIFI,ws:393|0|2.75) AliApp(AP/10.3.86.8000) AlipayClient/10.3.86.8000 Language/zh-Hans useStatusBar/true isConcaveScreen/true Region/CN',
  },
  {
    app: 'alipay',
    os: 'ios',
    name: 'Alipay on iOS',
    userAgent:
      'Mozilla/5.0 (iPhone; CPU iPhone OS 18_6_2 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/22G100 ChannelId(8) Ariver/1.1.0 AliApp(AP/10.8.30.6000) Nebula WK RVKType(0) AlipayDefined(nt:WIFI,ws:390|844|3.0,ac:ss) AlipayClient/10.8.30.6000 Language/zh-Hans Region/CN NebulaX/1.0.0 XRiver/10.2.58.1',
  },
];

/** Browsers that download for themselves, some of them close cousins of the apps' (QQ Browser
 * on the same TBS engine, UC on Alibaba's). */
export const ordinaryAgents: Record<string, string> = {
  'Chrome on Android':
    'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/129.0.0.0 Mobile Safari/537.36',
  'Safari on iPhone':
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
  'QQ Browser on Android':
    'Mozilla/5.0 (Linux; U; Android 13; zh-cn; PHB110 Build/TP1A.220905.001) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/109.0.5414.86 MQQBrowser/14.3 Mobile Safari/537.36 COVC/046833',
  'UC on Android':
    'Mozilla/5.0 (Linux; U; Android 12; zh-CN; 2201122C Build/SKQ1.211006.001) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/100.0.4896.58 UCBrowser/15.5.8.1308 Mobile Safari/537.36',
  'Huawei Browser':
    'Mozilla/5.0 (Linux; Android 12; HarmonyOS; NOH-AN00; HMSCore 6.11.0.302) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/99.0.4844.88 HuaweiBrowser/14.0.2.311 Mobile Safari/537.36',
  'Chrome on Windows':
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/129.0.0.0 Safari/537.36',
};
