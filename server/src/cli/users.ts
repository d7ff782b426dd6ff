/** `users …` and `audit`: the console's operator accounts, and the log of who changed what. */
import { text } from 'node:stream/consumers';
import { createInterface } from 'node:readline';
import { Argument, InvalidArgumentError, Option, type Command } from 'commander';
import { hashPassword, passwordProblem } from '../accounts/passwords.js';
import {
  addUser,
  findUser,
  listAudit,
  listUsers,
  recordAudit,
  removeUser,
  roles,
  setPassword,
} from '../accounts/repository.js';
import { toWireTime } from '../lib/time.js';
import { databaseInUse, timeZone, UsageError, withDb } from './context.js';
import { cliActor } from './audit.js';
import { print, printJson, printTable } from './output.js';

export function registerUserCommands(group: Command): void {
  group.description('operator accounts of the console at /admin');
  const fromStdin = new Option('--password-stdin', 'read the password from standard input instead of asking');

  group
    .command('add')
    .description('create an account; asks for its password')
    .addArgument(nameArgument())
    .addOption(
      new Option('--role <role>', 'admin manages everything; editor writes announcements')
        .choices(roles)
        .makeOptionMandatory(),
    )
    .addOption(fromStdin)
    .action(async (name: string, options: { role: 'admin' | 'editor'; passwordStdin?: boolean }) => {
      const passwordHash = await hashPassword(await readNewPassword(options.passwordStdin === true));
      const added = await withDb(async (db) => {
        if (!(await addUser(db, { name, role: options.role, passwordHash }))) return false;
        await recordAudit(db, {
          actor: cliActor(),
          action: 'user.add',
          target: name,
          after: { name, role: options.role },
        });
        return true;
      });
      if (!added) throw new UsageError(`there is already an account named ${name}`);
      print(`added ${name} (${options.role}) to ${databaseInUse()}`);
    });

  group
    .command('list')
    .description('list the accounts')
    .option('--json', 'print JSON for scripts')
    .action(async (options: { json?: boolean }) => {
      const zone = timeZone();
      const users = (await withDb(listUsers)).map((user) => ({
        name: user.name,
        role: user.role,
        created_at: toWireTime(user.created_at, zone),
      }));
      if (options.json === true) return printJson(users);
      if (users.length === 0) return print('no accounts; add one with: npm run admin -- users add NAME --role admin');
      printTable(
        ['name', 'role', 'created'],
        users.map((user) => [user.name, user.role, user.created_at]),
      );
    });

  group
    .command('remove')
    .description('delete an account and end its sessions')
    .addArgument(nameArgument())
    .action(async (name: string) => {
      const removed = await withDb(async (db) => {
        const user = await findUser(db, name);
        if (user === undefined || !(await removeUser(db, name))) return false;
        await recordAudit(db, {
          actor: cliActor(),
          action: 'user.remove',
          target: user.name,
          before: { name: user.name, role: user.role },
        });
        return true;
      });
      if (!removed) throw new UsageError(`there is no account named ${name}`);
      print(`removed ${name}`);
    });

  group
    .command('reset-password')
    .description('set a new password and end every session of the account')
    .addArgument(nameArgument())
    .addOption(fromStdin)
    .action(async (name: string, options: { passwordStdin?: boolean }) => {
      const user = await withDb((db) => findUser(db, name));
      if (user === undefined) throw new UsageError(`there is no account named ${name}`);
      const passwordHash = await hashPassword(await readNewPassword(options.passwordStdin === true));
      await withDb(async (db) => {
        await setPassword(db, user.id, passwordHash);
        await recordAudit(db, { actor: cliActor(), action: 'user.reset-password', target: user.name });
      });
      print(`set a new password for ${user.name}; their sessions have ended`);
    });
}

export function registerAuditCommand(command: Command): void {
  command
    .description('who changed what and when, newest first')
    .option('--limit <n>', 'how many entries (default 50)', parseLimit, 50)
    .option('--json', 'print JSON for scripts, with the before and after of each change')
    .action(async (options: { limit: number; json?: boolean }) => {
      const zone = timeZone();
      const rows = await withDb((db) => listAudit(db, { limit: options.limit, offset: 0 }));
      const entries = rows.map((row) => ({
        at: toWireTime(row.at, zone),
        actor: row.actor,
        action: row.action,
        target: row.target,
        before: row.before === null ? null : (JSON.parse(row.before) as unknown),
        after: row.after === null ? null : (JSON.parse(row.after) as unknown),
      }));
      if (options.json === true) return printJson(entries);
      if (entries.length === 0) return print('nothing has been changed yet');
      printTable(
        ['at', 'actor', 'action', 'target'],
        entries.map((e) => [e.at, e.actor, e.action, e.target]),
      );
    });
}

function nameArgument(): Argument {
  return new Argument('<name>', 'the user name').argParser((name: string) => {
    if (!/^[\p{L}\p{N}._-]{1,64}$/u.test(name)) {
      throw new InvalidArgumentError('a user name has 1 to 64 letters, digits, dots, dashes or underscores');
    }
    return name;
  });
}

function parseLimit(value: string): number {
  const limit = Number(value);
  if (!Number.isInteger(limit) || limit < 1 || limit > 10_000)
    throw new InvalidArgumentError('a whole number from 1 to 10000');
  return limit;
}

/** The new password: the whole of standard input less one final line break, or asked twice on
 * the terminal without echo. */
async function readNewPassword(fromStdin: boolean): Promise<string> {
  let password: string;
  if (fromStdin) {
    password = (await text(process.stdin)).replace(/\r?\n$/, '');
  } else {
    if (process.stdin.isTTY !== true)
      throw new UsageError('standard input is not a terminal: give the password with --password-stdin');
    password = await ask('password: ');
    if ((await ask('again: ')) !== password) throw new UsageError('the two passwords differ');
  }
  const problem = passwordProblem(password);
  if (problem !== undefined) throw new UsageError(problem);
  return password;
}

function ask(prompt: string): Promise<string> {
  const reader = createInterface({ input: process.stdin, output: process.stderr, terminal: true });
  // Echo nothing of what is typed.
  (reader as unknown as { _writeToOutput: (text: string) => void })._writeToOutput = (chunk: string) => {
    if (chunk.startsWith(prompt)) process.stderr.write(prompt);
  };
  return new Promise((done) =>
    reader.question(prompt, (answer) => {
      reader.close();
      process.stderr.write('\n');
      done(answer);
    }),
  );
}
