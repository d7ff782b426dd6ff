import { Type } from 'typebox';
import { ContentLanguage, LanguageQuery } from '@chat-site/contract';
import { errorResponse, textResponse } from '../lib/schemas.js';

/** Any platform and any version text is answered, whatever its length (check-path.ts): an
 * unknown platform with no update, an unreadable version with the current release. */
const Params = Type.Object({ os: Type.String(), version: Type.String() });

/** TangSengDaoDao's appversion answer: every field, or none when the client is current. */
const AppVersion = Type.Object(
  {
    app_version: Type.Optional(Type.String()),
    os: Type.Optional(Type.String()),
    is_force: Type.Optional(Type.Integer({ minimum: 0, maximum: 1, description: '1: the client must update' })),
    update_desc: Type.Optional(Type.String({ description: "The release's notes" })),
    download_url: Type.Optional(Type.String({ description: 'Where /dl/{os} sends this client' })),
    created_at: Type.Optional(Type.String({ description: 'YYYY-MM-DD HH:MM:SS in TIME_ZONE' })),
  },
  { description: '{} when the version asked is the current release or newer, else the release to update to' },
);

const Tauri = Type.Object(
  {
    url: Type.String(),
    version: Type.String(),
    notes: Type.String(),
    pub_date: Type.String({ description: 'RFC 3339' }),
    signature: Type.String({ description: "The release's Tauri signature; empty when none was given" }),
  },
  { description: 'The release to update to (the Tauri updater dynamic server answer)' },
);

/** One release in the changelog: the update check's fields, every one present, and the size. */
const ChangelogEntry = Type.Object({
  app_version: Type.String(),
  os: Type.String({ description: 'android, ios, windows or mac' }),
  is_force: Type.Integer({ minimum: 0, maximum: 1, description: '1: the release forces the update' }),
  update_desc: Type.String({ description: "The release's notes; empty when none were given" }),
  download_url: Type.String({ description: "The release's own package, with the CDN applied" }),
  created_at: Type.String({ description: 'When it was released: YYYY-MM-DD HH:MM:SS in TIME_ZONE' }),
  size: Type.Union([Type.Integer({ minimum: 0 }), Type.Null()], { description: 'Bytes; null when unknown' }),
  lang: Type.Optional(ContentLanguage),
});

export const updateSchemas = {
  changelog: {
    operationId: 'listChangelog',
    summary: 'Every published release of every platform, newest first (the public changelog)',
    querystring: Type.Object({ lang: LanguageQuery }),
    response: { 200: Type.Array(ChangelogEntry) },
  },
  appVersion: {
    operationId: 'checkAppVersion',
    summary: "The chat apps' update check: the release a client at this version should update to",
    params: Params,
    response: { 200: AppVersion },
  },
  tauri: {
    operationId: 'checkTauriUpdate',
    summary: "The desktop app's Tauri updater check",
    params: Params,
    querystring: Type.Object({
      arch: Type.Optional(
        Type.String({
          description:
            "Tauri's {{arch}} (x86_64, aarch64, i686, armv7): picks the release's Tauri payload built for it",
        }),
      ),
    }),
    response: {
      200: Tauri,
      204: {
        type: 'null',
        description:
          'No update: the version asked is current, nothing is published, or the platform is not windows, darwin or mac',
      },
    },
  },
  electron: {
    operationId: 'getElectronUpdateInfo',
    summary: "electron-updater's update info of the Windows (latest.yml) or Mac (latest-mac.yml) app",
    params: Type.Object({ file: Type.String({ maxLength: 32 }) }),
    response: {
      200: textResponse('text/yaml', 'version, files [{url, sha512, size}], path, sha512, releaseDate, releaseNotes'),
      404: errorResponse(
        'Not latest.yml or latest-mac.yml, no release of the platform, or a release from an outside URL (no SHA-512)',
      ),
    },
  },
};
