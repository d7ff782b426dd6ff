import type { StorageTarget } from '../config.js';
import { DirectoryStorage } from './file-store.js';
import { S3Storage } from './s3-store.js';
import type { FileStorage } from './types.js';

export * from './types.js';

const opened = new WeakMap<StorageTarget, FileStorage>();

/** The storage a target names; one per target object, so the routes, the demo loader and the
 * migration of one server share it (and one S3 client's connections). */
export function storageFor(target: StorageTarget): FileStorage {
  let storage = opened.get(target);
  if (storage === undefined) {
    storage = target.kind === 'file' ? new DirectoryStorage(target.dir) : new S3Storage(target);
    opened.set(target, storage);
  }
  return storage;
}
