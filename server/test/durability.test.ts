/**
 * Durability under a crash: the real built server is SIGKILLed while several clients stream admin
 * writes into it, then restarted on the same database; three times over.
 *
 * What is asserted after every restart:
 * - every announcement whose POST got a 2xx is there, with the id it was given and the exact
 *   title, content and pin flag sent (read back through every page of /v1/bulletin/page at
 *   page_size=100, and through /v1/bulletin/detail for a sample);
 * - nothing is there that no client sent, nothing is there twice (titles are unique), and a row
 *   seen once never disappears later. A POST that was in flight at the kill (no answer) may have
 *   landed or not; either is accepted, and whichever it was must stay so after later crashes;
 * - the app config and the install package list are each written by one serialised stream
 *   (at most one PUT of each in flight, the next sent only after the previous one's 2xx), so the
 *   stored value is exactly the last acknowledged one, or the one that was in flight at the kill;
 *   the package list is never a mix of two PUTs (it is replaced in one transaction);
 * - the page's count equals the rows listed, and the database's own count of rows;
 * - the database is intact: on SQLite, the file as the crash left it (with its WAL) and again after
 *   a clean stop, opened read-only: PRAGMA integrity_check is 'ok' and PRAGMA foreign_key_check is
 *   empty; on PostgreSQL: no duplicate ids or titles, and amcheck (bt_index_check with heapallindexed
 *   on every btree index, verify_heapam on every table) reports nothing; /healthz answers 200.
 *
 * Note for PostgreSQL: what is killed is the server process, not PostgreSQL (the throwaway test
 * cluster runs with fsync=off), so this checks that a 2xx is only sent after the commit and that
 * the pool's transactions cut off mid-way leave nothing behind, not PostgreSQL's own crash safety.
 */
import assert from 'node:assert/strict';
import { describe, test, type TestContext } from 'node:test';
import type {
  AppConfig,
  BulletinDetail,
  BulletinListItem,
  BulletinPage,
  InstallPackageList,
} from '@chat-site/contract';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { adminToken, createTestDatabase, dialect, spawnServer, testEnv, type ServerProcess } from './helpers.js';

const cycles = 3;
const writers = 4;
const pageSize = 100;

/** Every announcement ever sent, by its (unique) title. */
interface SentBulletin {
  title: string;
  content: string;
  topup: 0 | 1;
  /** sent: no answer yet; acked: 2xx with this id; landed: no answer but found after the restart;
   * lost: no answer and not there after the restart (must never appear later). */
  state: 'sent' | 'acked' | 'landed' | 'lost';
  id?: number;
  cycle: number;
  writer: number;
}

/** A setting written by one serialised stream: write n+1 is sent only after write n's 2xx. */
interface Stream {
  next: number;
  /** The last write answered 2xx (or found stored after a restart). */
  acked: number | undefined;
  /** The write without an answer yet: at a kill, it may or may not have landed. */
  inFlight: number | undefined;
  ackedThisCycle: number;
}

interface Ledger {
  bulletins: Map<string, SentBulletin>;
  appconfig: Stream;
  packages: Stream;
  /** Ids seen after an earlier restart: each must still be there. */
  seen: Set<number>;
  /** Anything a live server answered wrongly; must stay empty. */
  failures: string[];
}

interface Run {
  base: string;
  cycle: number;
  killed: boolean;
  inFlight: number;
  /** Writes that got their answer, right or wrong. */
  answered: number;
  /** Called after each answer (answeredUntil). */
  onAnswer?: () => void;
}

/** Resolves once `done` holds, asked again after each answer `run` gets. */
function answeredUntil(run: Run, done: () => boolean): Promise<void> {
  if (done()) return Promise.resolve();
  return new Promise((resolve) => {
    run.onAnswer = () => {
      if (!done()) return;
      run.onAnswer = undefined;
      resolve();
    };
  });
}

const auth = { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' };

/** One admin write. Undefined when no answer came (the connection died with the server). */
async function send(run: Run, ledger: Ledger, method: string, path: string, body: unknown): Promise<unknown> {
  run.inFlight++;
  try {
    const response = await fetch(`${run.base}${path}`, { method, headers: auth, body: JSON.stringify(body) });
    const text = await response.text();
    run.answered++;
    run.onAnswer?.();
    if (response.status < 200 || response.status > 299) {
      ledger.failures.push(`${method} ${path} answered ${response.status}: ${text.slice(0, 200)}`);
      return undefined;
    }
    return JSON.parse(text) as unknown;
  } catch (error) {
    if (!run.killed) ledger.failures.push(`${method} ${path} failed while the server was up: ${String(error)}`);
    return undefined;
  } finally {
    run.inFlight--;
  }
}

/** Announcement HTML of 0.5–1.5 KB: markup, Chinese text, quotes, emoji and a relative image. It is
 * already in the form the server's sanitiser writes (`<img ... />`), so it is stored unchanged. */
function bulletinContent(tag: string): string {
  const paragraphs = 2 + Math.floor(Math.random() * 6);
  let html = `<h2>维护通知 ${tag}</h2>`;
  for (let p = 0; p < paragraphs; p++) {
    html += `<p>第 ${p + 1} 段：服务器将于 02:00–04:00 升级，期间消息可能延迟 &amp; "重试" 🚀 ${tag}-${p}</p>`;
  }
  return `${html}<p><img src="file/preview/0123456789abcdef-banner.png" alt="banner" /></p>`;
}

function appConfigOf(n: number): AppConfig {
  return { use_cdn: n % 2 === 0 ? 0 : 1, common_cdn_bucket_url: `https://cdn${n % 3}.example.com/bucket/${n}` };
}

/** The n-th package list; mac is listed only on even n, so a mix of two lists would show. */
function packagesOf(n: number): InstallPackageList {
  const list: InstallPackageList = [
    { OS: 'android', DownloadURL: `https://dl.example.com/android/app-${n}.apk`, version: `5.${n}.0`, size: 1000 + n },
    { OS: 'windows', DownloadURL: `https://dl.example.com/windows/setup-${n}.exe`, version: `5.${n}.0` },
  ];
  if (n % 2 === 0)
    list.push({ OS: 'mac', DownloadURL: `https://dl.example.com/mac/app-${n}.dmg`, version: `5.${n}.0` });
  return list;
}

async function writeSetting(run: Run, ledger: Ledger, which: 'appconfig' | 'packages'): Promise<void> {
  const stream = ledger[which];
  const n = stream.next++;
  stream.inFlight = n;
  const answer = await send(
    run,
    ledger,
    'PUT',
    `/v1/admin/${which}`,
    which === 'appconfig' ? appConfigOf(n) : packagesOf(n),
  );
  if (answer === undefined) return; // stays in flight: it may or may not have landed
  stream.acked = n;
  stream.inFlight = undefined;
  stream.ackedThisCycle++;
}

async function writer(run: Run, ledger: Ledger, w: number): Promise<void> {
  for (let k = 0; !run.killed; k++) {
    // A stream whose last write got no answer is not written again: its state is unknown.
    if (k % 4 === 1 && ledger.appconfig.inFlight === undefined) {
      await writeSetting(run, ledger, 'appconfig');
    } else if (k % 4 === 3 && ledger.packages.inFlight === undefined) {
      await writeSetting(run, ledger, 'packages');
    } else {
      const title = `公告 c${run.cycle} w${w} #${k} ${Math.random().toString(36).slice(2, 8)}`;
      const sent: SentBulletin = {
        title,
        content: bulletinContent(title),
        topup: Math.random() < 0.1 ? 1 : 0,
        state: 'sent',
        cycle: run.cycle,
        writer: w,
      };
      ledger.bulletins.set(title, sent);
      const answer = (await send(run, ledger, 'POST', '/v1/admin/bulletins', {
        title,
        content: sent.content,
        topup: sent.topup,
      })) as { id: number } | undefined;
      if (answer !== undefined) {
        assert.ok(Number.isInteger(answer.id), `POST answered ${JSON.stringify(answer)}`);
        sent.state = 'acked';
        sent.id = answer.id;
      }
    }
  }
}

async function getJson<T>(url: string): Promise<T> {
  const response = await fetch(url);
  const text = await response.text();
  assert.equal(response.status, 200, `${url}: ${text.slice(0, 300)}`);
  return JSON.parse(text) as T;
}

/** The stored value of a serialised stream must be its last acknowledged write or the one in flight. */
function checkStream(name: string, stream: Stream, stored: number | undefined): string {
  const allowed = [stream.acked, stream.inFlight].filter((n) => n !== undefined);
  if (allowed.length === 0) {
    assert.equal(stored, undefined, `${name}: nothing was ever written, yet #${stored} is stored`);
    return `${name}: none`;
  }
  assert.ok(
    stored !== undefined && allowed.includes(stored),
    `${name}: stored #${stored}, expected the last acknowledged #${stream.acked}` +
      (stream.inFlight === undefined ? '' : ` or the unanswered #${stream.inFlight}`),
  );
  const outcome =
    stream.inFlight === undefined
      ? `${name} #${stored} (last acknowledged; none unanswered)`
      : stored === stream.inFlight
        ? `${name} #${stored} (the unanswered write landed)`
        : `${name} #${stored} (last acknowledged; unanswered #${stream.inFlight} did not land)`;
  stream.acked = stored;
  stream.inFlight = undefined;
  return outcome;
}

/** Reads everything back through the restarted server and checks it against the ledger. */
async function verify(
  base: string,
  ledger: Ledger,
): Promise<{ count: number; landed: number; lost: number; settings: string }> {
  assert.deepEqual(await getJson(`${base}/healthz`), { status: 'ok' });

  const rows: BulletinListItem[] = [];
  let count: number | undefined;
  for (let index = 1; ; index++) {
    const page = await getJson<BulletinPage>(`${base}/v1/bulletin/page?page_index=${index}&page_size=${pageSize}`);
    count ??= page.count;
    assert.equal(page.count, count, 'the count does not change between pages');
    rows.push(...page.list);
    if (page.list.length < pageSize) break;
  }
  assert.equal(rows.length, count, 'the pages list exactly `count` announcements');
  const byTitle = new Map(rows.map((row) => [row.title, row]));
  assert.equal(new Set(rows.map((row) => row.id)).size, rows.length, 'no id appears twice');
  assert.equal(byTitle.size, rows.length, 'no announcement landed twice');

  let landed = 0;
  let lost = 0;
  for (const row of rows) {
    const sent = ledger.bulletins.get(row.title);
    assert.ok(sent !== undefined, `an announcement nobody sent: ${row.id} ${row.title}`);
    assert.notEqual(sent.state, 'lost', `${row.title} was missing after an earlier restart and is back`);
    assert.equal(row.content, sent.content, `content of ${row.id}`);
    assert.equal(row.topup, sent.topup, `topup of ${row.id}`);
    if (sent.state === 'sent') {
      sent.state = 'landed';
      sent.id = row.id;
      landed++;
    }
    assert.equal(row.id, sent.id, `${row.title} keeps its id`);
  }
  for (const sent of ledger.bulletins.values()) {
    if (sent.state === 'acked' || sent.state === 'landed') {
      assert.equal(
        byTitle.get(sent.title)?.id,
        sent.id,
        `acknowledged announcement ${sent.id} (${sent.title}) is missing`,
      );
    } else if (sent.state === 'sent') {
      sent.state = 'lost';
      lost++;
    }
  }
  for (const id of ledger.seen)
    assert.ok(
      rows.some((row) => row.id === id),
      `announcement ${id} disappeared`,
    );
  for (const row of rows) ledger.seen.add(row.id);

  // The detail endpoint too, for the writes closest to each kill and a random sample.
  const stored = [...ledger.bulletins.values()].filter((sent) => sent.id !== undefined);
  const sample = new Set<SentBulletin>();
  for (let w = 0; w < writers; w++) {
    for (const cycle of new Set(stored.map((sent) => sent.cycle))) {
      const last = stored.findLast((sent) => sent.writer === w && sent.cycle === cycle);
      if (last !== undefined) sample.add(last);
    }
  }
  for (let i = 0; i < 20; i++) {
    const pick = stored[Math.floor(Math.random() * stored.length)];
    if (pick !== undefined) sample.add(pick);
  }
  for (const sent of sample) {
    const detail = await getJson<BulletinDetail>(`${base}/v1/bulletin/detail?id=${sent.id}`);
    assert.equal(detail.Id, sent.id);
    assert.equal(detail.Title, sent.title);
    assert.equal(detail.Content, sent.content);
  }

  const appConfig = await getJson<AppConfig>(`${base}/v1/common/appconfig`);
  const appSeq =
    appConfig.common_cdn_bucket_url === '' ? undefined : Number(appConfig.common_cdn_bucket_url.split('/').pop());
  if (appSeq !== undefined) assert.deepEqual(appConfig, appConfigOf(appSeq), 'the app config is one that was sent');
  const appOutcome = checkStream('app config', ledger.appconfig, appSeq);

  const packages = await getJson<InstallPackageList>(`${base}/v1/common/getInstallPackageAddrs`);
  const packageSeq = packages.length === 0 ? undefined : Number(/^5\.(\d+)\.0$/.exec(packages[0]?.version ?? '')?.[1]);
  if (packageSeq !== undefined) {
    assert.deepEqual(packages, packagesOf(packageSeq), 'the package list is exactly one list that was sent, not a mix');
  }
  const packageOutcome = checkStream('package list', ledger.packages, packageSeq);

  return { count: rows.length, landed, lost, settings: `${appOutcome}; ${packageOutcome}` };
}

interface Integrity {
  count: number;
  distinctIds: number;
  distinctTitles: number;
  problems: string[];
}

/** The database file as it is, read-only: SQLite's own checks, and the row counts. */
function checkSqlite(url: string): Integrity {
  const file = new SQLite(url.slice('sqlite:'.length), { readonly: true, fileMustExist: true });
  try {
    const integrity = (file.pragma('integrity_check') as { integrity_check: string }[]).map((r) => r.integrity_check);
    const foreignKeys = file.pragma('foreign_key_check') as unknown[];
    const counts = file
      .prepare('SELECT count(*) AS c, count(DISTINCT id) AS i, count(DISTINCT title) AS t FROM bulletins')
      .get() as { c: number; i: number; t: number };
    const problems = [
      ...(integrity.length === 1 && integrity[0] === 'ok' ? [] : integrity.map((line) => `integrity_check: ${line}`)),
      ...foreignKeys.map((row) => `foreign_key_check: ${JSON.stringify(row)}`),
    ];
    return { count: counts.c, distinctIds: counts.i, distinctTitles: counts.t, problems };
  } finally {
    file.close();
  }
}

/** PostgreSQL: row counts, duplicate keys, and amcheck over every index and table of the schema. */
async function checkPostgres(url: string, t: TestContext): Promise<Integrity> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const counts = await client.query<{ c: string; i: string; t: string }>(
      'SELECT count(*) AS c, count(DISTINCT id) AS i, count(DISTINCT title) AS t FROM bulletins',
    );
    const problems: string[] = [];
    for (const [table, key] of [
      ['bulletins', 'id'],
      ['settings', 'key'],
      ['install_packages', 'os'],
    ] as const) {
      const duplicates = await client.query(`SELECT ${key} FROM ${table} GROUP BY ${key} HAVING count(*) > 1`);
      for (const row of duplicates.rows) problems.push(`duplicate ${table}.${key}: ${JSON.stringify(row)}`);
    }
    const available = await client.query("SELECT 1 FROM pg_available_extensions WHERE name = 'amcheck'");
    if (available.rowCount === 0) {
      t.diagnostic('amcheck is not installed: index and heap checks skipped');
    } else {
      await client.query('CREATE EXTENSION IF NOT EXISTS amcheck');
      const indexes = await client.query<{ name: string }>(
        `SELECT c.relname AS name FROM pg_index i
           JOIN pg_class c ON c.oid = i.indexrelid JOIN pg_am am ON am.oid = c.relam
           JOIN pg_class tbl ON tbl.oid = i.indrelid
          WHERE am.amname = 'btree' AND tbl.relnamespace = 'public'::regnamespace`,
      );
      assert.ok(indexes.rows.length >= 4, 'the primary keys and bulletins_order are checked');
      for (const { name } of indexes.rows) {
        try {
          await client.query('SELECT bt_index_check($1::regclass, true)', [name]);
        } catch (error) {
          problems.push(`bt_index_check(${name}): ${String(error)}`);
        }
      }
      for (const table of ['bulletins', 'settings', 'install_packages', 'stored_files']) {
        const corrupt = await client.query('SELECT * FROM verify_heapam($1::regclass)', [table]);
        for (const row of corrupt.rows) problems.push(`verify_heapam(${table}): ${JSON.stringify(row)}`);
      }
    }
    const row = counts.rows[0];
    assert.ok(row !== undefined);
    return { count: Number(row.c), distinctIds: Number(row.i), distinctTitles: Number(row.t), problems };
  } finally {
    await client.end();
  }
}

async function checkIntegrity(url: string, t: TestContext, expectedCount?: number): Promise<Integrity> {
  const result = dialect === 'sqlite' ? checkSqlite(url) : await checkPostgres(url, t);
  assert.deepEqual(result.problems, [], 'the database is intact');
  assert.equal(result.distinctIds, result.count, 'no duplicate ids');
  assert.equal(result.distinctTitles, result.count, 'no announcement stored twice');
  if (expectedCount !== undefined) assert.equal(result.count, expectedCount, 'the database holds what the API lists');
  return result;
}

describe(`durability on ${dialect}`, () => {
  test(
    'SIGKILL during a stream of admin writes, three times: every acknowledged write survives, the database is intact',
    { timeout: 90_000 },
    async (t) => {
      const database = await createTestDatabase();
      const ledger: Ledger = {
        bulletins: new Map(),
        appconfig: { next: 1, acked: undefined, inFlight: undefined, ackedThisCycle: 0 },
        packages: { next: 1, acked: undefined, inFlight: undefined, ackedThisCycle: 0 },
        seen: new Set(),
        failures: [],
      };
      let server: ServerProcess | undefined;
      let run: Run | undefined;
      try {
        server = await spawnServer(testEnv(database));
        for (let cycle = 1; cycle <= cycles; cycle++) {
          const current: Run = { base: server.url, cycle, killed: false, inFlight: 0, answered: 0 };
          run = current;
          ledger.appconfig.ackedThisCycle = 0;
          ledger.packages.ackedThisCycle = 0;
          const streams = Array.from({ length: writers }, (_, w) => writer(current, ledger, w));

          // Once every kind of write has been acknowledged at least once (a cold server on a busy
          // machine can take a while), the writes run on for another 40–120 answers before the
          // kill: a point chosen in the stream of writes, not in time, so a slow machine moves it
          // no closer to the start. A wrong answer stops the wait, to be reported below.
          await answeredUntil(
            current,
            () =>
              ledger.failures.length > 0 || (ledger.appconfig.ackedThisCycle > 0 && ledger.packages.ackedThisCycle > 0),
          );
          const killAt = current.answered + 40 + Math.floor(Math.random() * 80);
          await answeredUntil(current, () => ledger.failures.length > 0 || current.answered >= killAt);
          // Some of these may already have their answer on the way: only the ones never answered count
          // as cut off, and the diagnostic says how many there were.
          const inFlightAtKill = run.inFlight;
          run.killed = true;
          server.child.kill('SIGKILL');
          assert.equal(await server.exited, null, 'the server died of the signal');
          assert.equal(server.child.signalCode, 'SIGKILL');
          await Promise.all(streams);
          assert.deepEqual(ledger.failures, [], 'every write the live server answered was a 2xx');
          assert.ok(inFlightAtKill > 0, 'writes were in flight at the kill');

          // The file exactly as the crash left it (WAL included), before any server opens it again.
          if (dialect === 'sqlite') {
            const known = [...ledger.bulletins.values()].filter((s) => s.state === 'acked' || s.state === 'landed');
            const crashed = await checkIntegrity(database.url, t);
            assert.ok(crashed.count >= known.length, 'the file itself holds every acknowledged announcement');
          }

          const cycleBulletins = [...ledger.bulletins.values()].filter((sent) => sent.cycle === cycle);
          const acked = cycleBulletins.filter((sent) => sent.state === 'acked').length;
          const unanswered = cycleBulletins.filter((sent) => sent.state === 'sent').length;
          const unansweredSettings = [ledger.appconfig, ledger.packages].filter((s) => s.inFlight !== undefined).length;
          assert.ok(acked > 0 && ledger.appconfig.ackedThisCycle > 0 && ledger.packages.ackedThisCycle > 0);

          server = await spawnServer(testEnv(database));
          const { count, landed, lost, settings } = await verify(server.url, ledger);
          await checkIntegrity(database.url, t, count);
          t.diagnostic(
            `cycle ${cycle}: ${acked} announcements, ${ledger.appconfig.ackedThisCycle} app configs and ` +
              `${ledger.packages.ackedThisCycle} package lists acknowledged; ${inFlightAtKill} writes awaiting an ` +
              `answer at the kill, ${unanswered + unansweredSettings} never answered (${unanswered} POSTs: ` +
              `${landed} landed, ${lost} did not); ${count} announcements stored; ${settings}`,
          );
        }
        assert.equal(await server.stop('SIGTERM'), 0, 'the last server stops cleanly');
        server = undefined;
        await checkIntegrity(database.url, t, ledger.seen.size);
      } finally {
        if (run !== undefined) run.killed = true; // the writers stop, even when an assertion failed
        if (server !== undefined) await server.stop('SIGKILL');
        await database.drop();
      }
    },
  );
});
