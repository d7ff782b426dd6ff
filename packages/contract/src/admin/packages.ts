/** The install package list as the operator replaces it (docs/public-api.md#downloads). */
import { Type, type Static } from 'typebox';
import { InstallPackage, operatingSystems, Timestamp } from '../canonical.js';
import { HttpUrlString } from './common.js';

/** An entry as the operator sends it: an absolute URL, or a path relative to the download base
 * (file/preview/<key> for a file this server hosts). */
export const PackageEntryBody = Type.Object(
  {
    OS: InstallPackage.properties.OS,
    DownloadURL: Type.String({ minLength: 1, maxLength: 2048 }),
    version: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
    size: Type.Optional(Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER })),
    sha256: Type.Optional(Type.String({ pattern: '^[0-9a-f]{64}$' })),
    released_at: Type.Optional(Timestamp),
    release_notes_url: Type.Optional(HttpUrlString),
    // The list's own fields, so that what the public list answers can be sent back as it is.
    notes: InstallPackage.properties.notes,
    min_os: InstallPackage.properties.min_os,
  },
  { additionalProperties: false },
);

export const PackageListBody = Type.Array(PackageEntryBody, { maxItems: operatingSystems.length });
export type PackageListBody = Static<typeof PackageListBody>;
