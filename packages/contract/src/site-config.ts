/**
 * The operator's site settings (site.config.json). The server validates them at start-up and
 * hands them to the site inside the page, in <meta name="site-config">.
 */
import { Type, type Static } from 'typebox';

const HttpUrl = (description: string) =>
  Type.String({ pattern: '^https?://[^\\s/?#]+[^\\s]*$', maxLength: 2048, description });

export const SiteConfig = Type.Object(
  {
    productName: Type.String({
      minLength: 1,
      maxLength: 40,
      description: 'Name of the app, shown in the hero, titles and the copyright line.',
    }),
    primaryDomain: Type.String({
      pattern: '^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\\.)+[a-z]{2,63}$',
      description:
        'Public domain (lower case, no scheme). On it and on www.<it> the member centre shows and the download screen offers only the Android APK.',
    }),
    apiAddrs: Type.Array(HttpUrl('An API address; calls go to <addr>/v1/.'), {
      maxItems: 20,
      description: 'Built-in API addresses tried at start-up. Empty: the origin the site is served from.',
    }),
    regionDocumentUrls: Type.Array(HttpUrl('A region document address.'), {
      maxItems: 20,
      description: 'Region documents fetched when no known API address answers.',
    }),
    appUrl: HttpUrl('Base address for install package URLs that are not absolute.'),
    webClientUrl: HttpUrl('The web version of the app (header button, footer link).'),
    memberCentreUrl: HttpUrl('Member centre page, linked on the primary domain only.'),
    iosAppStoreId: Type.String({
      pattern: '^[0-9]{5,12}$',
      description: 'Numeric App Store id of the iOS app.',
    }),
    iosSmartAppBanner: Type.Optional(
      Type.Boolean({
        description:
          'Adds the iOS Smart App Banner for iosAppStoreId (<meta name="apple-itunes-app">), except on the primary domain.',
      }),
    ),
    testflightUrl: HttpUrl('App Store page of TestFlight, used by the iOS tutorial.'),
    androidApkUrl: HttpUrl('The fixed APK the primary domain downloads directly.'),
    androidEdgeUrl: Type.Optional(
      HttpUrl('Optional edge service answering {success, data: {url}} with an alternate Android URL.'),
    ),
    agreementUrl: HttpUrl('Service user agreement page.'),
    privacyUrl: HttpUrl('Privacy policy page.'),
    contact: Type.Array(
      Type.Object(
        {
          label: Type.String({ minLength: 1, maxLength: 60 }),
          url: Type.String({ pattern: '^(https?://|mailto:)[^\\s]+$', maxLength: 2048 }),
        },
        { additionalProperties: false },
      ),
      { maxItems: 10, description: 'Links in the footer contact column.' },
    ),
  },
  { additionalProperties: false },
);
export type SiteConfig = Static<typeof SiteConfig>;
