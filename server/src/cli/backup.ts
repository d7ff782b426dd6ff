/** `backup` and `restore`: the database and every hosted file in one archive, and back
 * (docs/backups.md). */
import { statSync } from 'node:fs';
import type { Command } from 'commander';
import { ArchiveError } from '../backup/archive.js';
import { backup } from '../backup/export.js';
import { restore, RestoreRefusedError } from '../backup/import.js';
import { UsageError, withConnection } from './context.js';
import { print, printFields, printProblem } from './output.js';

const backupHelp = `
The archive is a tar file (gzip-compressed when FILE ends in .gz or .tgz) holding manifest.json,
one JSON-lines file per table and every hosted file. It is made while servers keep running: the
tables are read in one snapshot, and the files that snapshot names are copied from the storage
and checked against their SHA-256. It is written to FILE.tmp and renamed to FILE once complete.

Example, nightly from cron:
  0 3 * * *  cd /srv/chat-site && DATABASE_URL=... STORAGE_URL=... \\
             npm run --silent admin -- backup --to /var/backups/site-$(date +\\%F).tar.gz`;

const restoreHelp = `
Loads an archive written by backup into an empty database and an empty file storage (DATABASE_URL
and STORAGE_URL), which may be of the other kind (SQLite to PostgreSQL and back, a directory to S3).
It refuses a database with any row or a storage with any file, and an archive that is damaged
or cut short; in every refusal nothing is left behind. Start the server only after it.`;

export function registerBackupCommands(program: Command): void {
  program
    .command('backup')
    .description('write the database and every hosted file into one archive, while the site runs')
    .requiredOption('--to <file>', 'the archive to write (.tar, or .tar.gz / .tgz to compress)')
    .addHelpText('after', backupHelp)
    .action(async (options: { to: string }) => {
      const started = Date.now();
      const summary = await withConnection((db, { storage }) =>
        backup({ db, storage, to: options.to, warn: (message) => printProblem('warning', message) }),
      );
      const { manifest } = summary;
      print(summary.path);
      printFields({
        tables: Object.keys(manifest.tables).length,
        rows: Object.values(manifest.tables).reduce((sum, table) => sum + table.rows, 0),
        files: manifest.files.length,
        'files left out': manifest.skipped_files.length,
        'archive bytes': summary.bytes,
        'read back': 'every row and file as the manifest lists them',
        seconds: ((Date.now() - started) / 1000).toFixed(1),
      });
    });

  program
    .command('restore')
    .description('load an archive written by backup into an empty database and file storage')
    .requiredOption('--from <file>', 'the archive to read')
    .addHelpText('after', restoreHelp)
    .action(async (options: { from: string }) => {
      const started = Date.now();
      try {
        if (!statSync(options.from).isFile()) throw new UsageError(`${options.from} is not a file`);
      } catch (error) {
        if (error instanceof UsageError) throw error;
        throw new UsageError(`cannot read ${options.from}: ${(error as Error).message}`);
      }
      const summary = await withConnection(
        (db, { storage }) =>
          restore({ db, storage, from: options.from }).catch((error: unknown) => {
            if (error instanceof ArchiveError)
              throw new UsageError(`the archive ${options.from} is refused: ${error.message}`);
            if (error instanceof RestoreRefusedError) throw new UsageError(error.message);
            throw error;
          }),
        { migrate: false },
      );
      const { manifest } = summary;
      print(`restored ${options.from}`);
      printFields({
        'made at': manifest.created_at,
        'made on': manifest.source_dialect,
        'made by': `version ${manifest.app_version}, commit ${manifest.app_commit ?? 'not recorded'}`,
        tables: Object.keys(manifest.tables).length,
        rows: summary.rows,
        files: manifest.files.length,
        'file bytes': summary.bytes,
        seconds: ((Date.now() - started) / 1000).toFixed(1),
      });
    });
}
