/** `bulletins …`: the announcements the site lists, newest and pinned first. */
import { Option, type Command } from 'commander';
import { findBulletin, listAllBulletins, removeBulletin, type BulletinPatch } from '../bulletins/repository.js';
import { createWithRevision, saveWithRevision } from '../bulletins/revisions.js';
import { sanitizeBulletinHtml, tooDeeplyNested } from '../bulletins/sanitize.js';
import type { BulletinRow } from '../db/schema.js';
import { statusOf } from '../bulletins/admin-view.js';
import { toWireTime } from '../lib/time.js';
import { auditCli, cliActor } from './audit.js';
import { timeZone, UsageError, withDb } from './context.js';
import { print, printFields, printJson, printTable } from './output.js';
import { parseId, parseTitle, parseWireTime, readText } from './parse.js';

interface ContentOptions {
  contentFile?: string;
  content?: string;
}

export function registerBulletinCommands(group: Command): void {
  group.description('list, publish, change and remove the announcements');
  listCommand(group.command('list'));
  showCommand(group.command('show'));
  addCommand(group.command('add'));
  editCommand(group.command('edit'));
  removeCommand(group.command('remove'));
  pinCommand(group.command('pin'), true);
  pinCommand(group.command('unpin'), false);
}

function listCommand(command: Command): void {
  command
    .description('list every announcement in the order the site shows them')
    .option('--json', 'print JSON for scripts')
    .action(async (options: { json?: boolean }) => {
      const zone = timeZone();
      const bulletins = (await withDb(listAllBulletins)).map((row) => toCliBulletin(row, zone));
      if (options.json === true) return printJson(bulletins);
      if (bulletins.length === 0) return print('no announcements');
      printTable(
        ['id', 'status', 'pinned', 'created_at', 'title'],
        bulletins.map((row) => [String(row.id), row.status, row.pinned ? 'yes' : 'no', row.created_at, row.title]),
      );
    });
}

function showCommand(command: Command): void {
  command
    .description('show one announcement with its HTML content')
    .argument('<id>', 'the announcement id', parseId)
    .option('--json', 'print JSON for scripts')
    .action(async (id: number, options: { json?: boolean }) => {
      const zone = timeZone();
      const row = await withDb(async (db) => (await findBulletin(db, id)) ?? notFound(id));
      const bulletin = { ...toCliBulletin(row, zone), content: row.content };
      if (options.json === true) return printJson(bulletin);
      const { content, ...fields } = bulletin;
      printFields({ ...fields, pinned: fields.pinned ? 'yes' : 'no' });
      print();
      print(content);
    });
}

function addCommand(command: Command): void {
  command
    .description('publish a new announcement; prints its id')
    .requiredOption('--title <text>', 'the title, 1 to 200 characters', parseTitle);
  withContentOptions(command)
    .option('--pinned', 'show it above the unpinned ones')
    .option('--created-at <time>', 'its date as "YYYY-MM-DD HH:MM:SS" in TIME_ZONE (default: now)', parseWireTime)
    .action(async (options: ContentOptions & { title: string; pinned?: boolean; createdAt?: string }) => {
      const content = contentOf(options);
      if (content === undefined) {
        throw new UsageError('give the content with --content-file <path> or --content <html>');
      }
      const input = { title: options.title, content, pinned: options.pinned === true, createdAt: options.createdAt };
      const id = await withDb(async (db) => {
        const created = await createWithRevision(db, input, cliActor());
        await auditCli(db, { action: 'bulletin.create', target: created, after: await findBulletin(db, created) });
        return created;
      });
      print(String(id));
    });
}

function editCommand(command: Command): void {
  command
    .description('change the title or the content of an announcement')
    .argument('<id>', 'the announcement id', parseId)
    .option('--title <text>', 'the new title, 1 to 200 characters', parseTitle);
  withContentOptions(command).action(async (id: number, options: ContentOptions & { title?: string }) => {
    const content = contentOf(options);
    if (options.title === undefined && content === undefined) {
      throw new UsageError('nothing to change: give --title, --content-file or --content');
    }
    await change(id, {
      ...(options.title !== undefined && { title: options.title }),
      ...(content !== undefined && { content }),
    });
    print(`updated announcement ${id}`);
  });
}

function removeCommand(command: Command): void {
  command
    .description('delete an announcement')
    .argument('<id>', 'the announcement id', parseId)
    .action(async (id: number) => {
      const removed = await withDb(async (db) => {
        const before = await findBulletin(db, id);
        if (!(await removeBulletin(db, id))) return false;
        await auditCli(db, { action: 'bulletin.remove', target: id, before });
        return true;
      });
      if (!removed) notFound(id);
      print(`removed announcement ${id}`);
    });
}

function pinCommand(command: Command, pinned: boolean): void {
  command
    .description(pinned ? 'show an announcement above the unpinned ones' : 'list an announcement by its date again')
    .argument('<id>', 'the announcement id', parseId)
    .action(async (id: number) => {
      await change(id, { pinned });
      print(`${pinned ? 'pinned' : 'unpinned'} announcement ${id}`);
    });
}

function withContentOptions(command: Command): Command {
  return command
    .addOption(new Option('--content-file <path>', 'read the HTML content from a UTF-8 file'))
    .addOption(new Option('--content <html>', 'the HTML content').conflicts('contentFile'));
}

/** The content as given, cleaned with the same allowlist as the admin API. */
function contentOf(options: ContentOptions): string | undefined {
  const html = options.contentFile !== undefined ? readText(options.contentFile) : options.content;
  if (html === undefined) return undefined;
  const problem = tooDeeplyNested(html);
  if (problem !== undefined) throw new UsageError(problem);
  return sanitizeBulletinHtml(html);
}

async function change(id: number, patch: BulletinPatch): Promise<void> {
  const saved = await withDb(async (db) => {
    const before = await findBulletin(db, id);
    const result = await saveWithRevision(db, id, patch, undefined, { actor: cliActor(), action: 'update' });
    if (result !== 'missing') {
      await auditCli(db, { action: 'bulletin.update', target: id, before, after: await findBulletin(db, id) });
    }
    return result;
  });
  if (saved === 'missing') notFound(id);
}

function notFound(id: number): never {
  throw new UsageError(`there is no announcement with id ${id}`);
}

function toCliBulletin(row: BulletinRow, zone: string) {
  return {
    id: row.id,
    title: row.title,
    pinned: row.pinned === 1,
    status: statusOf(row),
    created_at: toWireTime(row.created_at, zone),
    updated_at: toWireTime(row.updated_at, zone),
  };
}
