/** `files upload`: puts an image or an install package into the database, where every server
 * sharing it serves the file under file/preview/<key>. */
import { basename } from 'node:path';
import { InvalidArgumentError, type Command } from 'commander';
import { extensionOf, imageTypes, looksLikeImage, packageTypes } from '../files/content-types.js';
import { storeFile } from '../files/repository.js';
import { UsageError, withDb } from './context.js';
import { print, printFields } from './output.js';
import { readBytes } from './parse.js';

export interface Upload {
  name: string;
  contentType: string;
  data: Buffer;
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
      const stored = await withDb((db) => storeFile(db, upload));
      print(stored.path);
      printFields({ size: `${stored.size} bytes`, sha256: stored.sha256 });
    });
}

/** Reads a file to upload and checks its type by the extension of its name, and an image also
 * by its bytes: a browser must never get something else than the image it was promised. */
export function readUpload(path: string, name: string | undefined, allowed: UploadKind[]): Upload {
  const storedName = name ?? basename(path);
  const extension = extensionOf(storedName);
  const kind = allowed.find((candidate) => kinds[candidate].types[extension] !== undefined);
  if (kind === undefined) throw new UsageError(`${storedName} is not ${allowed.map(describeKind).join(' or ')}`);
  const contentType = kinds[kind].types[extension] ?? '';
  const data = readBytes(path);
  if (data.byteLength === 0) throw new UsageError(`${path} is empty`);
  if (kind === 'image' && !looksLikeImage(contentType, data)) {
    throw new UsageError(`${path} does not hold a ${extension} image`);
  }
  return { name: storedName, contentType, data };
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
