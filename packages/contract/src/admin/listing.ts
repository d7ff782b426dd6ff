/**
 * How the site is listed where it is published (docs/reach.md#filings-stores-and-verification):
 * its filing numbers in mainland China, the app's pages in the Android stores and AppGallery for
 * HarmonyOS NEXT, and the search engines' site verification codes. Saved in the console's
 * settings; the server writes what is set into every page it sends, and nothing when none is.
 */
import { Type, type Static } from 'typebox';
import { icpFilingPattern, policeFilingPattern } from '../filing-numbers.js';
import { androidStores, type AndroidStore } from '../site-stores.js';

/** The search engines whose verification meta tag the page can carry, by the tag's name. */
export const verificationTags = {
  baidu: 'baidu-site-verification',
  sogou: 'sogou_site_verification',
  so360: '360-site-verification',
  bing: 'msvalidate.01',
  google: 'google-site-verification',
} as const;
export type SearchEngine = keyof typeof verificationTags;

const optionalUrlPattern = '^(|https?://[^\\s/?#]+[^\\s]*)$';
const OptionalUrl = Type.String({ pattern: optionalUrlPattern, maxLength: 2048 });
const VerificationCode = Type.String({ pattern: '^[A-Za-z0-9_-]{0,100}$' });

export const SiteListing = Type.Object(
  {
    icp_filing: Type.String({
      pattern: icpFilingPattern,
      description: 'ICP filing number, e.g. 京ICP备12345678号-1; empty: none.',
    }),
    police_filing: Type.String({
      pattern: policeFilingPattern,
      description: 'Public security filing number, e.g. 京公网安备11010502030143号; empty: none.',
    }),
    police_badge: Type.Boolean({
      description: "Shows the public security filing's badge (shipped with the site) before its number.",
    }),
    harmonyos_url: Type.String({
      pattern: optionalUrlPattern,
      maxLength: 2048,
      description: "The app's AppGallery page for HarmonyOS NEXT; empty: not yet available there.",
    }),
    stores: Type.Object(
      Object.fromEntries(androidStores.map((store) => [store, OptionalUrl])) as Record<
        AndroidStore,
        typeof OptionalUrl
      >,
      { additionalProperties: false, description: "The Android app's page in each store; empty: not listed there." },
    ),
    verification: Type.Object(
      Object.fromEntries(Object.keys(verificationTags).map((engine) => [engine, VerificationCode])) as Record<
        SearchEngine,
        typeof VerificationCode
      >,
      { additionalProperties: false, description: 'Each search engine’s site verification code; empty: no tag.' },
    ),
  },
  { additionalProperties: false },
);
export type SiteListing = Static<typeof SiteListing>;

export const emptySiteListing: SiteListing = {
  icp_filing: '',
  police_filing: '',
  police_badge: false,
  harmonyos_url: '',
  stores: Object.fromEntries(androidStores.map((store) => [store, ''])) as Record<AndroidStore, string>,
  verification: Object.fromEntries(Object.keys(verificationTags).map((engine) => [engine, ''])) as Record<
    SearchEngine,
    string
  >,
};
