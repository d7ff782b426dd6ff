/** `packages …`: the install package the download page offers for each operating system. */
import { basename } from 'node:path';
import { operatingSystems, type OperatingSystem } from '@chat-site/contract';
import { Argument, InvalidArgumentError, Option, type Command } from 'commander';
import type { InstallPackageRow } from '../db/schema.js';
import { extensionOf } from '../files/content-types.js';
import { downloadUrlProblem } from '../lib/schemas.js';
import { toWireTime } from '../lib/time.js';
import { ApkVersionError, readApkVersion, type ApkVersion } from '../packages/apk-version.js';
import { listPackages, removePackage, setPackage, UnknownHostedFileError } from '../packages/repository.js';
import { auditCli, cliActor } from './audit.js';
import { timeZone, UsageError, withDb, withFiles } from './context.js';
import { readUpload, storeUpload } from './files.js';
import { print, printFields, printJson } from './output.js';
import { parseHttpUrl, parseVersion, parseWireTime } from './parse.js';

interface SetOptions {
  url?: string;
  file?: string;
  version?: string;
  releasedAt?: string;
  releaseNotesUrl?: string;
}

export function registerPackageCommands(group: Command): void {
  group.description('the install packages of the download page, one per operating system');
  listCommand(group.command('list'));
  setCommand(group.command('set'));
  removeCommand(group.command('remove'));
}

function listCommand(command: Command): void {
  command
    .description('list the install packages')
    .option('--json', 'print JSON for scripts')
    .action(async (options: { json?: boolean }) => {
      const zone = timeZone();
      const entries = (await withDb(listPackages)).map((row) => toCliPackage(row, zone));
      if (options.json === true) return printJson(entries);
      if (entries.length === 0) return print('no install packages');
      entries.forEach((entry, index) => {
        if (index > 0) print();
        printEntry(entry);
      });
    });
}

function setCommand(command: Command): void {
  const url = new Option(
    '--url <url>',
    'an http(s) URL, a path relative to the download base, or the file/preview/<key> path of an uploaded file',
  );
  command
    .description('publish the package of one operating system, replacing its whole entry')
    .addArgument(osArgument())
    .addOption(url.argParser(parseDownloadUrl))
    .addOption(new Option('--file <path>', 'upload this package and point the entry at it').conflicts('url'))
    .option('--version <version>', 'the version it installs (for an .apk: read from its manifest)', parseVersion)
    .option('--released-at <time>', 'its release date as "YYYY-MM-DD HH:MM:SS" in TIME_ZONE', parseWireTime)
    .option('--release-notes-url <url>', 'where its release notes are', parseHttpUrl)
    .action(async (os: OperatingSystem, options: SetOptions) => {
      const zone = timeZone();
      const manifest = options.version === undefined ? await apkManifestOf(options.file) : undefined;
      const source = options.file !== undefined ? readUpload(options.file, undefined, ['package']) : options.url;
      if (source === undefined) throw new UsageError('give the package with --url <url> or --file <path>');
      const { releasedAt, releaseNotesUrl } = options;
      const version = options.version ?? manifest?.versionName;
      // One transaction: an upload is listed only when the entry pointing at it is saved too
      // (its bytes, already in the storage, are then never served; see docs/storage.md).
      const row = await withFiles((db, files) =>
        db.transaction().execute(async (trx) => {
          const downloadUrl = typeof source === 'string' ? source : (await storeUpload(trx, files, source)).path;
          const before = (await listPackages(trx)).find((entry) => entry.os === os);
          await setPackage(trx, { os, downloadUrl, version, releasedAt, releaseNotesUrl }, cliActor()).catch(
            asUsageError,
          );
          const after = (await listPackages(trx)).find((entry) => entry.os === os);
          await auditCli(trx, { action: 'packages.set', target: `packages:${os}`, before, after });
          return after;
        }),
      );
      if (row !== undefined) printEntry(toCliPackage(row, zone));
      if (manifest !== undefined) {
        // The version code has no place in a package entry: shown, so the operator can check it.
        print(
          `version from the manifest of ${manifest.packageName}: ${manifest.versionName} (versionCode ${manifest.versionCode})`,
        );
      }
    });
}

/** For an .apk, the version in its manifest; a file that is no readable APK is refused unless
 * the operator gives the version (docs/releases.md#apk-versions). */
async function apkManifestOf(path: string | undefined): Promise<ApkVersion | undefined> {
  if (path === undefined || extensionOf(basename(path)) !== 'apk') return undefined;
  let manifest: ApkVersion;
  try {
    manifest = await readApkVersion(path);
  } catch (error) {
    if (error instanceof ApkVersionError) throw new UsageError(`${error.message}; give the version with --version`);
    throw error;
  }
  try {
    parseVersion(manifest.versionName);
  } catch (error) {
    throw new UsageError(`the versionName of ${path} does not fit: ${(error as Error).message}; give --version`);
  }
  return manifest;
}

function removeCommand(command: Command): void {
  command
    .description('stop offering the package of one operating system')
    .addArgument(osArgument())
    .action(async (os: OperatingSystem) => {
      const removed = await withDb(async (db) => {
        const before = (await listPackages(db)).find((entry) => entry.os === os);
        if (!(await removePackage(db, os))) return false;
        await auditCli(db, { action: 'packages.remove', target: `packages:${os}`, before });
        return true;
      });
      if (!removed) throw new UsageError(`there is no ${os} install package`);
      print(`removed the ${os} install package`);
    });
}

function osArgument(): Argument {
  return new Argument('<os>', 'the operating system').choices(operatingSystems);
}

function parseDownloadUrl(text: string): string {
  const problem = downloadUrlProblem(text);
  if (problem !== undefined) {
    throw new InvalidArgumentError(
      `${problem}: give an http(s) URL, a path relative to the download base, or file/preview/<key>`,
    );
  }
  return text;
}

function asUsageError(error: unknown): never {
  throw error instanceof UnknownHostedFileError ? new UsageError(error.message) : error;
}

function toCliPackage(row: InstallPackageRow, zone: string) {
  return {
    os: row.os,
    url: row.download_url,
    version: row.version,
    size: row.size === null ? null : Number(row.size),
    sha256: row.sha256,
    released_at: row.released_at === null ? null : toWireTime(row.released_at, zone),
    release_notes_url: row.release_notes_url,
  };
}

function printEntry({ os, ...fields }: ReturnType<typeof toCliPackage>): void {
  print(os);
  printFields(fields, '  ');
}
