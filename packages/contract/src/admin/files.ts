/** Hosted files: uploading one, the list with what uses each, removing one nothing uses
 * (docs/admin-api.md#the-admin-api). */
import { Type, type Static } from 'typebox';
import { Nullable, PageIndex } from './common.js';

export const UploadQuery = Type.Object({ name: Type.String({ minLength: 1, maxLength: 200, pattern: '^[^/\\\\]+$' }) });

/** A file the server now hosts, at file/preview/<key> (`path`). */
export const HostedFile = Type.Object({
  key: Type.String(),
  path: Type.String(),
  size: Type.Integer(),
  sha256: Type.String(),
});
export type HostedFile = Static<typeof HostedFile>;

export const FileEntry = Type.Object({
  key: Type.String(),
  path: Type.String(),
  name: Type.String(),
  content_type: Type.String(),
  size: Type.Integer(),
  sha256: Type.String(),
  created_at: Type.String(),
  uploaded_by: Nullable(Type.String()),
  /** "package:android", "bulletin:12". */
  used_by: Type.Array(Type.String()),
});
export type FileEntry = Static<typeof FileEntry>;

export const FileQuery = Type.Object({
  page_index: PageIndex,
  page_size: Type.Integer({ minimum: 1, maximum: 200, default: 50 }),
});

export const FilePage = Type.Object({ count: Type.Integer(), list: Type.Array(FileEntry) });
export type FilePage = Static<typeof FilePage>;

export const FileKeyParams = Type.Object({ key: Type.String({ maxLength: 200 }) });

/** The 409 of removing a file something still uses. */
export const FileInUse = Type.Object(
  {
    status: Type.Integer(),
    msg: Type.String(),
    code: Type.Literal('in_use'),
    used_by: Type.Array(Type.String()),
  },
  { description: 'An install package or announcement still uses the file; used_by names them' },
);
export type FileInUse = Static<typeof FileInUse>;
