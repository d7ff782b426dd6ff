import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { constants } from 'node:fs';
import { access, mkdir, open, readdir, rename, stat, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { FileBody } from './file-body.js';
import { feed, Intake } from './intake.js';
import { privateDir, privateFile } from './private-files.js';
import { StorageFullError, type ByteRange, type FileStorage, type IntakeRules, type StagedFile } from './types.js';

/** Hosted files are readable by the server's user only, whatever the umask
 * (docs/backups.md#file-permissions): directories 0700, files 0600. */

/** Files named after their key in one directory. An upload is written to a temporary file in the
 * same directory (same file system, so the rename is atomic), flushed to disk, and renamed to
 * its key only once complete and hashed: no reader ever sees half a file. Temporary names start
 * with a dot, which no key does. */
export class DirectoryStorage implements FileStorage {
  readonly description: string;

  constructor(private readonly dir: string) {
    this.description = `file:${dir}`;
  }

  async stage(body: Readable, rules: IntakeRules): Promise<StagedFile> {
    await mkdir(this.dir, { recursive: true, mode: privateDir });
    const temporary = join(this.dir, `.incoming-${randomUUID()}`);
    const intake = new Intake(rules);
    try {
      feed(body, intake);
      await pipeline(intake, createWriteStream(temporary, { flags: 'wx', mode: privateFile }));
      await syncFile(temporary);
    } catch (error) {
      await removeQuietly(temporary);
      throw this.translate(error);
    }
    return {
      size: intake.received,
      sha256: intake.sha256,
      sha512: intake.sha512,
      commit: async (key) => {
        try {
          await rename(temporary, this.path(key));
          await syncFile(this.dir);
        } catch (error) {
          await removeQuietly(temporary);
          throw this.translate(error);
        }
      },
      discard: () => removeQuietly(temporary),
    };
  }

  async open(key: string, range?: ByteRange): Promise<Readable | undefined> {
    try {
      // Opened before anything is answered, so a missing file is a 404, not a cut response.
      const handle = await open(this.path(key), 'r');
      if (range !== undefined) return new FileBody(handle, range.start, range.end);
      try {
        return new FileBody(handle, 0, (await handle.stat()).size - 1);
      } catch (error) {
        await handle.close();
        throw error;
      }
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
  }

  async stat(key: string): Promise<{ size: number } | undefined> {
    try {
      return { size: (await stat(this.path(key))).size };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    await removeQuietly(this.path(key));
  }

  /** The directory exists (made as the first upload would make it) and may be listed, read and
   * written: a missing mount, a file in its place or a read-only file system fail. */
  async check(): Promise<void> {
    await mkdir(this.dir, { recursive: true, mode: privateDir });
    await access(this.dir, constants.R_OK | constants.W_OK | constants.X_OK);
  }

  async anyKey(): Promise<string | undefined> {
    try {
      return (await readdir(this.dir)).find((name) => !name.startsWith('.'));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
  }

  async close(): Promise<void> {}

  localPath(key: string): string {
    return this.path(key);
  }

  private path(key: string): string {
    if (key.includes('/') || key.includes('\\') || key.startsWith('.')) throw new Error(`not a file key: ${key}`);
    return join(this.dir, key);
  }

  private translate(error: unknown): unknown {
    const code = (error as NodeJS.ErrnoException).code;
    return code === 'ENOSPC' || code === 'EDQUOT' ? new StorageFullError(this.description) : error;
  }
}

/** fsync: the bytes (or, for a directory, the rename) are on disk before the upload is answered. */
async function syncFile(path: string): Promise<void> {
  const handle = await open(path, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

async function removeQuietly(path: string): Promise<void> {
  await unlink(path).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== 'ENOENT') throw error;
  });
}
