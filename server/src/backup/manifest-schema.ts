/**
 * What a backup's manifest.json may hold, field by field (docs/backups.md). restore
 * checks the whole manifest against it before anything is written: a manifest is read from a
 * file anyone may have edited, and each of its values ends up in a query, a path or a sequence.
 */
import { Type } from 'typebox';
import { Value } from 'typebox/value';

const Sha256 = Type.String({ pattern: '^[0-9a-f]{64}$' });
const Count = Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER });
/** Names of tables and columns: what both databases take unquoted. */
export const sqlNamePattern = '^[A-Za-z_][A-Za-z0-9_]{0,62}$';
/** A file key as files/repository.ts makes them: no slash, no leading dot. */
export const fileKeyPattern = '^[0-9a-f]{16}-[A-Za-z0-9._-]{1,120}$';
/** Ids are 32-bit in both databases (a PostgreSQL serial): the next one must be one too. */
export const maxId = 2_147_483_647;

const TableEntrySchema = Type.Object({
  rows: Count,
  sha256: Sha256,
  columns: Type.Array(Type.String({ pattern: sqlNamePattern }), { minItems: 1, maxItems: 500, uniqueItems: true }),
  next_id: Type.Optional(Type.Integer({ minimum: 1, maximum: maxId })),
});

const FileEntrySchema = Type.Object({
  key: Type.String({ pattern: fileKeyPattern }),
  size: Count,
  sha256: Sha256,
  content_type: Type.String({ minLength: 1, maxLength: 255 }),
});

export const ManifestSchema = Type.Object({
  format: Type.String(),
  format_version: Type.Integer(),
  created_at: Type.String({ maxLength: 64 }),
  app_version: Type.String({ maxLength: 200 }),
  app_commit: Type.Optional(Type.String({ maxLength: 200 })),
  source_dialect: Type.String({ pattern: '^(sqlite|postgres)$' }),
  migrations: Type.Array(Type.String({ pattern: '^[0-9A-Za-z_]{1,200}$' }), { maxItems: 10_000 }),
  tables: Type.Record(Type.String({ pattern: sqlNamePattern }), TableEntrySchema),
  files: Type.Array(FileEntrySchema),
  skipped_files: Type.Array(Type.Object({ key: Type.String(), reason: Type.String() })),
});

/** The first thing wrong with `value`, naming its field (`/tables/bulletins/next_id: ...`), or
 * undefined when it fits. */
export function manifestProblem(value: unknown): string | undefined {
  for (const error of Value.Errors(ManifestSchema, value)) {
    const where = error.instancePath === '' ? 'the top level' : error.instancePath;
    return `${where}: ${error.message}`;
  }
  return undefined;
}
