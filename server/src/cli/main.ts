#!/usr/bin/env node
/**
 * The operator's command line, `npm run admin -- <command>`. It works on the database named by
 * DATABASE_URL directly, so it needs neither the site config nor the admin token, and it works
 * whether or not a server is running. Exit codes: 0 done, 2 bad input, 1 anything else.
 */
import '../lib/node-version.js';
import { Command, CommanderError } from 'commander';
import { registerAppConfigCommands } from './appconfig.js';
import { registerListingCommands } from './listing.js';
import { registerBackupCommands } from './backup.js';
import { registerBulletinCommands } from './bulletins.js';
import { UsageError } from './context.js';
import { printProblem } from './output.js';
import { registerDemoCommands } from './demo.js';
import { registerFileCommands } from './files.js';
import { registerPackageCommands } from './packages.js';
import { registerRegionCommands } from './region.js';
import { registerStatsCommand } from './stats.js';
import { registerAuditCommand, registerUserCommands } from './users.js';

const environmentHelp = `
Environment:
  DATABASE_URL  the database, as for the server (default: sqlite:./data/site.db)
  STORAGE_URL   the file storage, as for the server (default: file:./data/files)
  TIME_ZONE     the zone times are shown and read in (default: Asia/Shanghai)

From the repository: npm run admin -- <command>`;

function buildProgram(): Command {
  const program = new Command('chat-site-admin')
    .description("manage the site's content directly in its database")
    .exitOverride()
    // Errors are written once, by report() below, whether commander or a command found them.
    .configureOutput({ outputError: () => undefined })
    .addHelpText('after', environmentHelp);
  // Subcommands made with .command() inherit the exit and output settings above.
  registerBulletinCommands(program.command('bulletins'));
  registerFileCommands(program.command('files'));
  registerPackageCommands(program.command('packages'));
  registerAppConfigCommands(program.command('appconfig'));
  registerRegionCommands(program.command('region'));
  registerListingCommands(program.command('listing'));
  registerDemoCommands(program.command('demo'));
  registerStatsCommand(program.command('stats'));
  registerUserCommands(program.command('users'));
  registerAuditCommand(program.command('audit'));
  registerBackupCommands(program);
  return program;
}

/** Writes what went wrong, if anything, and answers the exit code. */
function report(error: unknown): number {
  if (error instanceof CommanderError) {
    if (error.exitCode === 0) return 0; // --help, or the help command
    // A command group run without a command: commander has shown its help on stderr.
    if (error.code === 'commander.help') return fail('a command is needed; the list is above', 2);
    return fail(error.message.replace(/^error: /, '').replace(/\s*\n\s*/g, ' '), 2);
  }
  if (error instanceof UsageError) return fail(error.message, 2);
  return fail(error instanceof Error ? error.message : String(error), 1);
}

function fail(message: string, code: number): number {
  printProblem('error', message);
  return code;
}

// A reader that stops early (`bulletins list | head`) closes the pipe: what is left to print has
// nowhere to go, which is no failure of the command's. Anything it changed was changed before it
// printed.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code !== 'EPIPE') throw error;
  process.exit(process.exitCode ?? 0);
});

try {
  await buildProgram().parseAsync(process.argv);
} catch (error) {
  process.exitCode = report(error);
}
