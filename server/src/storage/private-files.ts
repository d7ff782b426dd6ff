/**
 * What the server keeps on disk is its user's alone (docs/backups.md#file-permissions). Builds
 * before this one left the resumable uploads' staging folder 0755 and its files 0644, and hosted
 * files of the directory store may be older still: each start closes them to others, once, and
 * logs how many it changed.
 */
import { chmod, readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';

export const privateDir = 0o700;
export const privateFile = 0o600;

/** chmod 0700 on `dir` and 0600 on each file directly in it, where others may read them; answers
 * how many it changed. A folder that does not exist yet is left for whoever makes it. */
export async function closeToOthers(dir: string): Promise<number> {
  let changed = 0;
  const tighten = async (path: string, mode: number) => {
    if (((await stat(path)).mode & 0o077) === 0) return;
    await chmod(path, mode);
    changed++;
  };
  try {
    await tighten(dir, privateDir);
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      if (entry.isFile()) await tighten(join(dir, entry.name), privateFile);
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  return changed;
}
