/** `appconfig …`: whether the app loads shared files from a CDN, and from which bucket. */
import type { AppConfig } from '@chat-site/contract';
import { Option, type Command } from 'commander';
import { getAppConfig, setAppConfig } from '../settings/repository.js';
import { auditCli } from './audit.js';
import { UsageError, withDb } from './context.js';
import { printFields, printJson } from './output.js';
import { parseBucketUrl } from './parse.js';

interface SetOptions {
  useCdn: 'on' | 'off';
  cdnUrl?: string;
}

export function registerAppConfigCommands(group: Command): void {
  group.description('whether the app loads shared files from a CDN');
  showCommand(group.command('show'));
  setCommand(group.command('set'));
}

function showCommand(command: Command): void {
  command
    .description('show the app config')
    .option('--json', 'print JSON for scripts')
    .action(async (options: { json?: boolean }) => {
      const config = await withDb(getAppConfig);
      if (options.json === true) return printJson(config);
      printAppConfig(config);
    });
}

function setCommand(command: Command): void {
  command
    .description('turn the CDN on or off')
    .addOption(new Option('--use-cdn <on|off>', 'whether to use the CDN').choices(['on', 'off']).makeOptionMandatory())
    .option('--cdn-url <url>', 'the CDN bucket URL; needed for "on" unless one is stored already', parseBucketUrl)
    .action(async (options: SetOptions) => {
      const config = await withDb(async (db) => {
        // Turning the CDN off keeps the bucket URL, so that turning it on again needs no URL.
        const url = options.cdnUrl?.replace(/\/+$/, '') ?? (await getAppConfig(db)).common_cdn_bucket_url;
        if (options.useCdn === 'on' && url === '') throw new UsageError('--use-cdn on needs a CDN URL: give --cdn-url');
        const next: AppConfig = { use_cdn: options.useCdn === 'on' ? 1 : 0, common_cdn_bucket_url: url };
        const before = await getAppConfig(db);
        await setAppConfig(db, next);
        await auditCli(db, { action: 'appconfig.set', target: 'appconfig', before, after: next });
        return next;
      });
      printAppConfig(config);
    });
}

function printAppConfig(config: AppConfig): void {
  printFields({ use_cdn: config.use_cdn === 1 ? 'on' : 'off', cdn_url: config.common_cdn_bucket_url || undefined });
}
