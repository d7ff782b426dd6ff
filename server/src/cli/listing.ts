/** `listing …`: the site's filing numbers, the app's store pages and the search engines'
 * verification codes (docs/reach.md#filings-stores-and-verification). */
import { androidStores } from '@chat-site/contract';
import { SiteListing, verificationTags } from '@chat-site/contract/admin';
import { Option, type Command } from 'commander';
import { Value } from 'typebox/value';
import { getSiteListing, setSiteListing } from '../settings/repository.js';
import { UsageError, withDb } from './context.js';
import { printFields, printJson } from './output.js';

interface SetOptions {
  icp?: string;
  police?: string;
  policeBadge?: 'on' | 'off';
  harmonyosUrl?: string;
  store?: string[];
  verify?: string[];
}

export function registerListingCommands(group: Command): void {
  group.description("the site's filing numbers, store pages and search verification codes");
  showCommand(group.command('show'));
  setCommand(group.command('set'));
}

function showCommand(command: Command): void {
  command
    .description('show the listing')
    .option('--json', 'print JSON for scripts')
    .action(async (options: { json?: boolean }) => {
      const listing = await withDb(getSiteListing);
      if (options.json === true) return printJson(listing);
      printListing(listing);
    });
}

const collect = (value: string, before: string[] = []) => [...before, value];

/** "name=value" with a known name; an empty value clears it. */
function pairs(given: string[] | undefined, names: readonly string[], option: string): Record<string, string> {
  return Object.fromEntries(
    (given ?? []).map((pair) => {
      const at = pair.indexOf('=');
      const name = pair.slice(0, Math.max(at, 0));
      if (at < 0 || !names.includes(name))
        throw new UsageError(`${option} takes <name>=<value>, the names being ${names.join(', ')}; got "${pair}"`);
      return [name, pair.slice(at + 1).trim()];
    }),
  );
}

function setCommand(command: Command): void {
  command
    .description('change the fields given, keeping the others; an empty value clears a field')
    .option('--icp <number>', 'ICP filing number, e.g. 京ICP备12345678号-1')
    .option('--police <number>', 'public security filing number, e.g. 京公网安备11010502030143号')
    .addOption(new Option('--police-badge <on|off>', 'show the public security badge').choices(['on', 'off']))
    .option('--harmonyos-url <url>', "the app's AppGallery page for HarmonyOS NEXT")
    .option('--store <name=url>', `a store page (${androidStores.join(', ')}); repeat for several`, collect)
    .option('--verify <engine=code>', `a verification code (${Object.keys(verificationTags).join(', ')})`, collect)
    .action(async (options: SetOptions) => {
      const listing = await withDb(async (db) => {
        const current = await getSiteListing(db);
        const next = {
          icp_filing: options.icp?.trim() ?? current.icp_filing,
          police_filing: options.police?.replace(/\s+/g, '') ?? current.police_filing,
          police_badge: options.policeBadge === undefined ? current.police_badge : options.policeBadge === 'on',
          harmonyos_url: options.harmonyosUrl?.trim() ?? current.harmonyos_url,
          stores: { ...current.stores, ...pairs(options.store, androidStores, '--store') },
          verification: {
            ...current.verification,
            ...pairs(options.verify, Object.keys(verificationTags), '--verify'),
          },
        };
        const problems = Value.Errors(SiteListing, next).map((problem) => `${problem.instancePath} ${problem.message}`);
        if (problems.length > 0) throw new UsageError(`not saved: ${problems.join('; ')}`);
        await setSiteListing(db, next);
        return next;
      });
      printListing(listing);
    });
}

function printListing(listing: SiteListing): void {
  printFields({
    icp_filing: listing.icp_filing || undefined,
    police_filing: listing.police_filing || undefined,
    police_badge: listing.police_badge ? 'on' : 'off',
    harmonyos_url: listing.harmonyos_url || undefined,
    ...Object.fromEntries(Object.entries(listing.stores).map(([store, url]) => [`store ${store}`, url || undefined])),
    ...Object.fromEntries(
      Object.entries(listing.verification).map(([engine, code]) => [`verify ${engine}`, code || undefined]),
    ),
  });
}
