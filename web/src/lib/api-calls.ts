import { defaultLanguage, type Language } from '@chat-site/contract';
import { announcementPageSize } from '../config/constants';

/**
 * The API calls the site starts its screens with, named once: the site's script makes them
 * (src/lib/http.ts and the features' api/ folders), and the build writes each prerendered
 * screen's first one into its frame, which src/boot-route.ts then asks for before the script
 * arrives. The same URL both ways is what lets the script take the early answer.
 */
export const apiCalls = {
  ping: 'ping',
  appConfig: 'common/appconfig',
  installPackages: 'common/getInstallPackageAddrs',
  announcements: `bulletin/page?page_index=1&page_size=${announcementPageSize}`,
} as const;

/** An announcement call in the visitor's language (docs/public-api.md#languages): `lang` is
 * left out in the default one, so that its URL, and what caches hold of it, stays as it was. */
export const inLanguage = (path: string, language: Language) =>
  language === defaultLanguage ? path : `${path}&lang=${language}`;

/** The URL of an API call: every call lives under {api}/v1/. */
export const apiUrl = (apiAddr: string, path: string) => `${apiAddr}/v1/${path}`;

/** A GET with the `os: WEB` header every call carries. */
export const fetchApi = (url: string, signal: AbortSignal, cache: RequestCache): Promise<Response> =>
  fetch(url, { headers: { os: 'WEB' }, signal, cache });
