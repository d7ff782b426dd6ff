/** `region …`: the document that tells the app which API and allocator addresses to use. */
import { RegionDocument } from '@chat-site/contract';
import { Option, type Command } from 'commander';
import { Value } from 'typebox/value';
import { getRegionDocument, setRegionDocument } from '../settings/repository.js';
import { auditCli } from './audit.js';
import { UsageError, withDb } from './context.js';
import { print, printFields, printJson } from './output.js';
import { collectHttpUrl, isHttpAddress, readText } from './parse.js';

interface SetOptions {
  file?: string;
  apiAddr?: string[];
  allocatorAddr?: string[];
}

type AddrList = RegionDocument['api_addrs'];

export function registerRegionCommands(group: Command): void {
  group.description('the API and allocator addresses the app is told to use');
  showCommand(group.command('show'));
  setCommand(group.command('set'));
}

function showCommand(command: Command): void {
  command
    .description('show the published region document')
    .option('--json', 'print JSON for scripts (null when none is published)')
    .action(async (options: { json?: boolean }) => {
      const document = await withDb(getRegionDocument);
      if (options.json === true) return printJson(document ?? null);
      if (document === undefined) return print('no region document published: the server names its own address');
      printRegion(document);
    });
}

function setCommand(command: Command): void {
  const file = new Option('--file <path>', 'a JSON file {"api_addrs":[{"addr":…}],"allocator_addrs":[{"addr":…}]}');
  command
    .description('publish a region document, from a file or from the addresses given')
    .addOption(file.conflicts(['apiAddr', 'allocatorAddr']))
    .option('--api-addr <url>', 'an API address; repeat the option for several', collectHttpUrl)
    .option('--allocator-addr <url>', 'an allocator address; repeat the option for several', collectHttpUrl)
    .action(async (options: SetOptions) => {
      const document = checkRegion(options.file === undefined ? fromAddrOptions(options) : readJson(options.file));
      await withDb(async (db) => {
        const before = await getRegionDocument(db);
        await setRegionDocument(db, document);
        await auditCli(db, { action: 'region.set', target: 'region', before, after: document });
      });
      printRegion(document);
    });
}

function fromAddrOptions(options: SetOptions): RegionDocument {
  if (options.apiAddr === undefined || options.allocatorAddr === undefined) {
    throw new UsageError('give --file <region.json>, or at least one --api-addr and one --allocator-addr');
  }
  const entries = (addrs: string[]) => addrs.map((addr) => ({ addr }));
  return { api_addrs: entries(options.apiAddr), allocator_addrs: entries(options.allocatorAddr) };
}

function readJson(path: string): unknown {
  const text = readText(path);
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new UsageError(`${path} is not JSON: ${(error as Error).message}`);
  }
}

/** The contract's shape with every address an http(s) URL; answers a copy without stray fields,
 * so that nothing but addresses is ever published. */
function checkRegion(value: unknown): RegionDocument {
  const problems = Value.Errors(RegionDocument, value).map(
    (problem) => `${problem.instancePath || 'the document'} ${problem.message}`,
  );
  if (problems.length > 0) throw new UsageError(`not a region document: ${problems.join('; ')}`);
  const document = value as RegionDocument;
  const clean = (list: AddrList, field: string) =>
    list.map(({ addr }, index) => {
      if (!isHttpAddress(addr)) throw new UsageError(`/${field}/${index}/addr "${addr}" is not an http(s) URL`);
      return { addr };
    });
  return {
    api_addrs: clean(document.api_addrs, 'api_addrs'),
    allocator_addrs: clean(document.allocator_addrs, 'allocator_addrs'),
  };
}

function printRegion(document: RegionDocument): void {
  const addrs = (list: AddrList) => list.map(({ addr }) => addr).join(', ') || undefined;
  printFields({ api_addrs: addrs(document.api_addrs), allocator_addrs: addrs(document.allocator_addrs) });
}
