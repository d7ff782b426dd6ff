/** `files …`: images for announcements and install packages, kept in the file storage
 * (STORAGE_URL) and served by every server under file/preview/<key>. */
import { createReadStream, statSync } from 'node:fs';
import { basename } from 'node:path';
import { InvalidArgumentError, type Command } from 'commander';
import type { Kysely } from 'kysely';
import type { Database, StoredFileRow } from '../db/schema.js';
import { extensionOf, imageTypes, packageTypes, uploadKindOf } from '../files/content-types.js';
import { describeUsers, fileUsers, keyPattern, removeFile, storeFile, type StoredFile } from '../files/repository.js';
import { IntakeError, StorageFullError } from '../storage/index.js';
import { toWireTime } from '../lib/time.js';
import { timeZone, UsageError, withFiles, type CliFiles } from './context.js';
import { auditCli, cliActor } from './audit.js';
import { print, printFields, printJson, printTable } from './output.js';

/** A file on disk checked by its name, to be streamed into the storage. */
export interface Upload {
  path: string;
  name: string;
  kind: UploadKind;
  contentType: string;
}

const kinds = {
  image: { label: 'an image', types: imageTypes },
  package: { label: 'an install package', types: packageTypes },
};

export type UploadKind = keyof typeof kinds;

export function registerFileCommands(group: Command): void {
  group.description('host images for announcements and install packages');

  group
    .command('upload')
    .description('store a file; prints the path to use in announcement HTML or a package entry')
    .argument('<path>', 'the file to upload')
    .option('--name <name>', 'the name to store it under (default: the file name)', parseFileName)
    .action(async (path: string, options: { name?: string }) => {
      const upload = readUpload(path, options.name, ['image', 'package']);
      const stored = await withFiles((db, files) => storeUpload(db, files, upload));
      print(stored.path);
      printFields({ size: `${stored.size} bytes`, sha256: stored.sha256 });
    });

  group
    .command('list')
    .description('list the hosted files, newest first, with what uses each')
    .option('--json', 'print JSON for scripts')
    .action(async (options: { json?: boolean }) => {
      const zone = timeZone();
      const files = await withFiles(async (db) => {
        const rows = await db
          .selectFrom('stored_files')
          .selectAll()
          .orderBy('created_at', 'desc')
          .orderBy('key')
          .execute();
        return Promise.all(rows.map((row) => toCliFile(db, row, zone)));
      });
      if (options.json === true) return printJson(files);
      if (files.length === 0) return print('no hosted files');
      printTable(
        ['key', 'size', 'created_at', 'uploaded_by', 'used_by'],
        files.map((file) => [
          file.key,
          String(file.size),
          file.created_at,
          file.uploaded_by ?? '-',
          file.used_by.join(', ') || '-',
        ]),
      );
    });

  group
    .command('remove')
    .description('delete a hosted file that no package entry or announcement uses')
    .argument('<key>', 'the file key (the part after file/preview/)', parseKey)
    .action(async (key: string) => {
      const result = await withFiles(async (db, { storage }) => {
        const removal = await removeFile(db, storage, key);
        if (removal?.removed === true) await auditCli(db, { action: 'file.remove', target: key });
        return removal;
      });
      if (result === undefined) throw new UsageError(`there is no hosted file ${key}`);
      if (!result.removed) {
        throw new UsageError(`${key} is still used by ${describeUsers(result.users)}; change or remove them first`);
      }
      print(`removed ${key}`);
    });
}

/** Checks a file to upload by the extension of its name (its bytes are checked as they stream
 * in): a browser must never get something else than the file it was promised. */
export function readUpload(path: string, name: string | undefined, allowed: UploadKind[]): Upload {
  const storedName = name ?? basename(path);
  const kind = uploadKindOf(storedName, allowed);
  if (kind === undefined) throw new UsageError(`${storedName} is not ${allowed.map(describeKind).join(' or ')}`);
  let size: number;
  try {
    size = statSync(path).size;
  } catch (error) {
    throw new UsageError(`cannot read ${path}: ${(error as Error).message}`);
  }
  if (size === 0) throw new UsageError(`${path} is empty`);
  return { path, name: storedName, kind: kind.kind, contentType: kind.contentType };
}

/** Streams the file into the storage; only its first bytes (and, for a .dmg, its last) are held
 * in memory. */
export async function storeUpload(db: Kysely<Database>, files: CliFiles, upload: Upload): Promise<StoredFile> {
  const kind = uploadKindOf(upload.name, [upload.kind]);
  if (kind === undefined) throw new UsageError(`${upload.name} is not ${describeKind(upload.kind)}`);
  const maxBytes = upload.kind === 'image' ? files.settings.uploadMaxBytes : files.settings.packageMaxBytes;
  const limitName = upload.kind === 'image' ? 'UPLOAD_MAX_BYTES' : 'PACKAGE_MAX_BYTES';
  try {
    const stored = await storeFile(db, files.storage, {
      name: upload.name,
      contentType: upload.contentType,
      body: createReadStream(upload.path),
      rules: { maxBytes, checkHead: kind.checkHead, checkTail: kind.checkTail },
      uploadedBy: cliActor(),
    });
    await auditCli(db, { action: 'file.upload', target: stored.key, after: stored });
    return stored;
  } catch (error) {
    if (error instanceof IntakeError && error.statusCode === 413) {
      throw new UsageError(`${upload.path} is larger than ${limitName} (${maxBytes} bytes)`);
    }
    if (error instanceof IntakeError) {
      const what = upload.kind === 'image' ? 'image' : 'package';
      throw new UsageError(`${upload.path} does not hold a ${extensionOf(upload.name)} ${what}: ${error.message}`);
    }
    if (error instanceof StorageFullError) throw new UsageError(error.message);
    if ((error as NodeJS.ErrnoException).syscall === 'open') {
      throw new UsageError(`cannot read ${upload.path}: ${(error as Error).message}`);
    }
    throw error;
  }
}

async function toCliFile(db: Kysely<Database>, row: StoredFileRow, zone: string) {
  return {
    key: row.key,
    path: `file/preview/${row.key}`,
    name: row.name,
    content_type: row.content_type,
    size: Number(row.size),
    sha256: row.sha256,
    created_at: toWireTime(row.created_at, zone),
    uploaded_by: row.uploaded_by,
    used_by: (await fileUsers(db, row.key)).map((user) =>
      user.kind === 'package' ? `package:${user.os}` : `bulletin:${user.id}`,
    ),
  };
}

function describeKind(kind: UploadKind): string {
  return `${kinds[kind].label} (${Object.keys(kinds[kind].types).join(', ')})`;
}

function parseFileName(text: string): string {
  if (text.length < 1 || text.length > 200 || /[/\\]/.test(text)) {
    throw new InvalidArgumentError('a file name has 1 to 200 characters and no slashes');
  }
  return text;
}

function parseKey(text: string): string {
  const key = text.replace(/^file\/preview\//, '');
  if (!keyPattern.test(key)) throw new InvalidArgumentError('a file key looks like 0123456789abcdef-name.ext');
  return key;
}
