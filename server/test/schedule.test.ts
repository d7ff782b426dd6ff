/**
 * The schedule's timer at rest: it asks the database nothing while nothing is due and nothing
 * has changed, and checks again when content changes, when a publication or end time comes, and
 * when the trash is to be swept (docs/behaviour.md#announcements-that-stop-by-themselves). Each
 * tick is driven by hand with a clock of the test's own; the queries are counted by a Kysely
 * plugin on a real connection to the test database. On SQLite, and on PostgreSQL with
 * TEST_POSTGRES_URL.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { KyselyPlugin } from 'kysely';
import { AdminBulletin } from '@chat-site/contract/admin';
import { watchContentChanges, type ContentChanges } from '../src/db/changes.js';
import { connect, type Db } from '../src/db/connect.js';
import { trashSweepMs, watchSchedule, type Schedule } from '../src/bulletins/schedule.js';
import { toWireTime } from '../src/lib/time.js';
import { startTestApp, type TestApp } from './helpers.js';
import { checked } from './checked.js';
import { adminCalls } from './admin-calls.js';

let t: TestApp;
let db: Db;
let changes: ContentChanges;
let schedule: Schedule;
let queries = 0;
let nowMs = Date.now();
const errors: string[] = [];
const log = { info() {}, warn() {}, error: (_: object, message: string) => void errors.push(message) };

const counting: KyselyPlugin = {
  transformQuery(args) {
    queries++;
    return args.node;
  },
  transformResult: async (args) => args.result,
};

before(async () => {
  t = await startTestApp();
  db = connect(t.config.database);
  changes = watchContentChanges(db, log);
  schedule = watchSchedule(db.kysely.withPlugin(counting), changes, log, () => new Date(nowMs));
  schedule.stop(); // the test ticks by hand
  // On PostgreSQL the change feed is trusted once its LISTEN connection is up.
  while (!changes.trustworthy()) await changes.nextChange();
});
after(async () => {
  await changes.close();
  await db.close();
  await t.close();
});

const { admin, createBulletin: create } = adminCalls(() => t.app);
const read = async (id: number) => checked(AdminBulletin, await admin('GET', `/bulletins/${id}`));
const wire = (ms: number) => toWireTime(new Date(Date.now() + ms).toISOString(), t.config.timeZone);

/** How many queries one tick of the timer asks. */
async function tick(): Promise<number> {
  queries = 0;
  await schedule.tick();
  return queries;
}

/** Makes a change through the site's own server and waits until this watcher has seen it. */
async function changeElsewhere<T>(write: () => Promise<T>): Promise<T> {
  const seen = changes.nextChange();
  const result = await write();
  changes.generation(); // on SQLite a reading is what notices another connection's commit
  await seen;
  return result;
}

test('at rest the timer asks nothing; a change, a due time and the trash sweep bring a check', async () => {
  assert.ok((await tick()) > 0, 'the first tick checks');
  assert.equal(await tick(), 0, 'nothing due and nothing changed');
  assert.equal(await tick(), 0);

  const hour = 3_600_000;
  const scheduled = await changeElsewhere(() => create({ title: '一小时后', publish_at: wire(hour / 2) }));
  const ending = await changeElsewhere(() => create({ title: '一小时后下线', unpublish_at: wire(hour) }));
  nowMs = Date.now(); // past both announcements' times of writing
  assert.ok((await tick()) > 0, 'a change brings a check');
  assert.equal(await tick(), 0, 'then quiet again');

  const publication = Date.parse(
    (await db.kysely.selectFrom('bulletins').select('created_at').where('id', '=', scheduled).executeTakeFirstOrThrow())
      .created_at,
  );
  nowMs = publication - 1;
  assert.equal(await tick(), 0, 'not before the publication time');
  const before = changes.generation();
  nowMs = publication;
  assert.ok((await tick()) > 0, 'the publication time brings a check');
  assert.ok(changes.generation() > before, 'and the check drops the cached answers');
  assert.equal(await tick(), 0);

  const end = Date.parse(
    (await db.kysely.selectFrom('bulletins').select('unpublish_at').where('id', '=', ending).executeTakeFirstOrThrow())
      .unpublish_at ?? '',
  );
  nowMs = end;
  assert.ok((await tick()) > 0, 'the end time brings a check');
  assert.equal((await read(ending)).status, 'draft', 'which unpublishes the announcement');
  // On PostgreSQL that write of the watcher's own comes back as a notice too. A later write of
  // the site's is seen only after every notice before it.
  await changeElsewhere(() => create({ title: '之后' }));
  assert.ok((await tick()) > 0);
  assert.equal(await tick(), 0);

  nowMs += trashSweepMs;
  assert.ok((await tick()) > 0, 'the hourly trash sweep brings a check');
  assert.equal(await tick(), 0);
  assert.deepEqual(errors, []);
});
