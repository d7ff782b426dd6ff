/** The form of an app version that the update checks compare (docs/releases.md#update-checks):
 * dotted numbers with an optional leading "v", an optional pre-release tag after "-" and build
 * metadata after "+". The server parses with it; the console checks fields with it before
 * sending them. */
export const appVersionPattern = /^v?(\d{1,9}(?:\.\d{1,9}){0,7})(?:-([0-9A-Za-z.-]{1,64}))?(?:\+[0-9A-Za-z.-]*)?$/i;

export function isAppVersion(text: string): boolean {
  return appVersionPattern.test(text.trim());
}
