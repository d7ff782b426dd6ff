/**
 * The operator's command line, run for real: the built and bundled server/dist/admin.js as a child
 * process on a fresh database (SQLite, or PostgreSQL when TEST_POSTGRES_URL is set). What it wrote
 * is read back through the command line itself and through the real HTTP API built on the same
 * database.
 */
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { buildApp } from '../src/app.js';
import { cliActor } from '../src/cli/audit.js';
import { loadConfig } from '../src/config.js';
import { connect } from '../src/db/connect.js';
import { migrate } from '../src/db/migrations.js';
import { storageFor } from '../src/storage/index.js';
import { bearer, cliPath, createTestDatabase, testEnv, type TestDatabase } from './helpers.js';

const workDir = mkdtempSync(join(tmpdir(), 'chat-site-cli-'));
const databases: TestDatabase[] = [];
const png = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

before(() => assert.ok(existsSync(cliPath), `${cliPath} is missing: run npm run build first`));
after(async () => {
  await Promise.all(databases.map((database) => database.drop()));
  rmSync(workDir, { recursive: true, force: true });
});

async function freshDatabase(): Promise<TestDatabase> {
  const database = await createTestDatabase();
  databases.push(database);
  return database;
}

function file(name: string, data: string | Buffer): string {
  const path = join(workDir, name);
  writeFileSync(path, data);
  return path;
}

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function run(database: TestDatabase, args: string[], env: Record<string, string> = {}): Promise<Run> {
  const options = {
    cwd: workDir,
    env: { ...process.env, DATABASE_URL: database.url, ...database.storageEnv, TIME_ZONE: 'Asia/Shanghai', ...env },
  };
  return new Promise((done) =>
    execFile(process.execPath, [cliPath, ...args], options, (error, stdout, stderr) => {
      const code = error === null ? 0 : typeof error.code === 'number' ? error.code : null;
      done({ code, stdout, stderr });
    }),
  );
}

/** Runs a command that must succeed; answers what it printed. */
async function ok(database: TestDatabase, ...args: string[]): Promise<string> {
  const result = await run(database, args);
  assert.equal(result.code, 0, `${args.join(' ')} failed: ${result.stderr}`);
  assert.equal(result.stderr, '');
  return result.stdout;
}

async function json<T>(database: TestDatabase, ...args: string[]): Promise<T> {
  return JSON.parse(await ok(database, ...args, '--json')) as T;
}

/** Runs a command that must be refused as bad input: exit 2, one `error:` line, no output. */
async function refused(database: TestDatabase, args: string[], env: Record<string, string> = {}): Promise<string> {
  const result = await run(database, args, env);
  assert.equal(result.code, 2, `${args.join(' ')} should exit 2; stderr: ${result.stderr}`);
  assert.match(result.stderr, /^error: [^\n]+\n$/, `${args.join(' ')}: ${result.stderr}`);
  assert.equal(result.stdout, '');
  return result.stderr;
}

/** The real HTTP API, built in-process on the database the command line wrote to. */
async function apiGet(database: TestDatabase, url: string, headers: Record<string, string> = {}) {
  const config = loadConfig(testEnv(database));
  const db = connect(config.database);
  try {
    await migrate(db, storageFor(config.storage));
    const app = await buildApp({ config, db });
    try {
      return await app.inject({ method: 'GET', url, headers });
    } finally {
      await app.close();
    }
  } finally {
    await db.close();
  }
}

interface CliBulletin {
  id: number;
  title: string;
  pinned: boolean;
  status: string;
  created_at: string;
  updated_at: string;
  content?: string;
}

interface CliPackage {
  os: string;
  url: string;
  version: string | null;
  size: number | null;
  sha256: string | null;
  released_at: string | null;
  release_notes_url: string | null;
}

describe('help', () => {
  test('--help on the program lists every command and exits 0', async () => {
    const database = await freshDatabase();
    const result = await run(database, ['--help']);
    assert.equal(result.code, 0);
    assert.match(result.stdout, /^Usage: chat-site-admin /);
    for (const group of ['bulletins', 'files', 'packages', 'appconfig', 'region', 'listing', 'demo']) {
      assert.match(result.stdout, new RegExp(`\\n  ${group} `));
    }
    assert.match(result.stdout, /DATABASE_URL/);
  });

  test('--help on a subcommand shows its options and exits 0', async () => {
    const database = await freshDatabase();
    const result = await run(database, ['packages', 'set', '--help']);
    assert.equal(result.code, 0);
    assert.match(result.stdout, /^Usage: chat-site-admin packages set \[options\] <os>/);
    assert.match(result.stdout, /--released-at <time>/);
  });

  test('a reader that closes the pipe early (`| head`) ends the command quietly with its own code', async () => {
    const database = await freshDatabase();
    await ok(database, 'demo', 'load');
    const child = spawn(process.execPath, [cliPath, 'bulletins', 'list'], {
      cwd: workDir,
      env: { ...process.env, DATABASE_URL: database.url },
    });
    // Closed before the command starts, so its first line meets a pipe nobody reads.
    child.stdout.destroy();
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise<number | null>((done) => child.on('close', done));
    assert.equal(stderr, '');
    assert.equal(code, 0);
  });

  test('a command group without a command shows its help and exits 2', async () => {
    const database = await freshDatabase();
    const result = await run(database, ['bulletins']);
    assert.equal(result.code, 2);
    assert.match(result.stderr, /Usage: chat-site-admin bulletins/);
    assert.match(result.stderr, /\nerror: [^\n]+\n$/);
  });
});

describe('bulletins', () => {
  test('add, list and show; the site API shows the pinned bulletin first', async () => {
    const database = await freshDatabase();
    assert.deepEqual(await json(database, 'bulletins', 'list'), []);
    const older = await ok(database, 'bulletins', 'add', '--title', 'Older', '--content', '<p>old</p>');
    const content = file('notice.html', '<p>Maintenance <b>tonight</b></p>\n');
    const pinnedArgs = ['--content-file', content, '--pinned', '--created-at', '2024-05-01 10:00:00'];
    const pinned = await ok(database, 'bulletins', 'add', '--title', '  Maintenance  ', ...pinnedArgs);
    const id = Number(pinned.trim());
    assert.ok(Number.isInteger(Number(older.trim())) && Number.isInteger(id));

    const [first, second] = await json<CliBulletin[]>(database, 'bulletins', 'list');
    assert.deepEqual(first, {
      id,
      title: 'Maintenance',
      pinned: true,
      status: 'published',
      created_at: '2024-05-01 10:00:00',
      updated_at: first?.updated_at,
    });
    assert.deepEqual([second?.id, second?.title, second?.pinned], [Number(older.trim()), 'Older', false]);
    const shown = await json<CliBulletin>(database, 'bulletins', 'show', String(id));
    assert.equal(shown.content, '<p>Maintenance <b>tonight</b></p>\n');

    const page = (await apiGet(database, '/v1/bulletin/page')).json();
    assert.equal(page.count, 2);
    assert.deepEqual(page.list[0], {
      id,
      title: 'Maintenance',
      content: '<p>Maintenance <b>tonight</b></p>\n',
      topup: 1,
      created_at: '2024-05-01 10:00:00',
      lang: 'zh-CN',
    });
  });

  test('plain text output: a table for list, fields and content for show', async () => {
    const database = await freshDatabase();
    const id = (await ok(database, 'bulletins', 'add', '--title', 'Hello', '--content', '<p>hi</p>')).trim();
    const table = (await ok(database, 'bulletins', 'list')).split('\n');
    assert.match(table[0] ?? '', /^id +status +pinned +created_at +title$/);
    assert.match(
      table[1] ?? '',
      new RegExp(`^${id} +published +no +\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d +Hello$`),
    );
    const shown = await ok(database, 'bulletins', 'show', id);
    assert.match(shown, /^id +\d+\ntitle +Hello\npinned +no\n/);
    assert.match(shown, /\n\n<p>hi<\/p>\n$/);
  });

  test('control and bidi characters from the database are shown as escapes, never sent to the terminal', async () => {
    const database = await freshDatabase();
    const title =
      'Fake\n999  published  yes  2000-01-01 00:00:00  Forged row \x1b[31mred\x1b]0;owned\x07 \u202eevil\x7f\x9b';
    const id = (
      await ok(database, 'bulletins', 'add', '--title', title, '--content', '<p>a</p>\n<p>\x1b[2J</p>')
    ).trim();
    // Line breaks are the output's own; any other control or bidi character came from the title.
    const raw = /[\p{Cc}\u202a-\u202e\u2066-\u2069]/u;
    const clean = (text: string) => !raw.test(text.replaceAll('\n', ''));
    const list = await ok(database, 'bulletins', 'list');
    assert.ok(clean(list), list);
    assert.equal(list.split('\n').length, 3, 'the header, one row, the final line break');
    assert.ok(
      list.includes(
        'Fake\\n999  published  yes  2000-01-01 00:00:00  Forged row \\x1b[31mred\\x1b]0;owned\\x07 \\u202eevil\\x7f\\x9b',
      ),
      list,
    );
    const shown = await ok(database, 'bulletins', 'show', id);
    assert.ok(clean(shown), shown);
    assert.match(shown, /\n<p>a<\/p>\n<p>\\x1b\[2J<\/p>\n$/, 'the content keeps its lines');
    const asJson = await ok(database, 'bulletins', 'list', '--json');
    assert.ok(clean(asJson), asJson);
    assert.equal((JSON.parse(asJson) as CliBulletin[])[0]?.title, title, 'JSON keeps the text, escaped');
    const error = await refused(database, ['bulletins', 'show', '1\x1b[31m']);
    assert.ok(clean(error), error);
  });

  test('edit, pin, unpin and remove', async () => {
    const database = await freshDatabase();
    const id = (await ok(database, 'bulletins', 'add', '--title', 'Draft', '--content', 'v1')).trim();
    await ok(database, 'bulletins', 'edit', id, '--title', 'Final');
    await ok(database, 'bulletins', 'edit', id, '--content-file', file('v2.html', 'v2'));
    await ok(database, 'bulletins', 'pin', id);
    let shown = await json<CliBulletin>(database, 'bulletins', 'show', id);
    assert.deepEqual([shown.title, shown.content, shown.pinned], ['Final', 'v2', true]);
    assert.equal((await apiGet(database, '/v1/bulletin/page')).json().list[0].topup, 1);
    // Each save from the command line is a revision too (docs/console.md#revisions).
    const revisions = (await apiGet(database, `/v1/admin/bulletins/${id}/revisions`, bearer)).json<{
      list: { action: string; by: string }[];
    }>().list;
    assert.deepEqual(
      revisions.map((revision) => `${revision.action} by ${revision.by}`),
      // The command line's source: cli and the system user who ran it, as in the audit log.
      ['update', 'update', 'update', 'create'].map((action) => `${action} by ${cliActor()}`),
    );

    await ok(database, 'bulletins', 'unpin', id);
    shown = await json<CliBulletin>(database, 'bulletins', 'show', id);
    assert.equal(shown.pinned, false);
    await ok(database, 'bulletins', 'remove', id);
    assert.deepEqual(await json(database, 'bulletins', 'list'), []);
    assert.equal((await apiGet(database, `/v1/bulletin/detail?id=${id}`)).statusCode, 404);
  });
});

describe('files', () => {
  test('upload stores an image and an install package, served under the printed path', async () => {
    const database = await freshDatabase();
    const printed = await ok(database, 'files', 'upload', file('logo.png', png));
    const sha256 = createHash('sha256').update(png).digest('hex');
    const [path, size, hash] = printed.trimEnd().split('\n');
    assert.equal(path, `file/preview/${sha256.slice(0, 16)}-logo.png`);
    assert.match(size ?? '', new RegExp(`^size +${png.byteLength} bytes$`));
    assert.match(hash ?? '', new RegExp(`^sha256 +${sha256}$`));
    const served = await apiGet(database, `/v1/${path}`);
    assert.equal(served.statusCode, 200);
    assert.deepEqual(served.rawPayload, png);

    const apk = file('build.apk', 'PK\x03\x04 fake apk bytes');
    const named = await ok(database, 'files', 'upload', apk, '--name', 'Xingliao 5.apk');
    assert.match(named, /^file\/preview\/[0-9a-f]{16}-Xingliao-5\.apk\n/);
  });

  test('upload refuses a .txt and a .png that is not a PNG, and stores nothing', async () => {
    const database = await freshDatabase();
    const fake = Buffer.from('just some text, not an image\n');
    assert.match(await refused(database, ['files', 'upload', file('notes.txt', fake)]), /not an image/);
    assert.match(await refused(database, ['files', 'upload', file('fake.png', fake)]), /not hold a png image/);
    const key = `${createHash('sha256').update(fake).digest('hex').slice(0, 16)}-fake.png`;
    assert.equal((await apiGet(database, `/v1/file/preview/${key}`)).statusCode, 404);
  });
});

describe('files list and remove', () => {
  test('list shows what uses each file; remove refuses a used file and deletes an unused one', async () => {
    const database = await freshDatabase();
    const apk = Buffer.concat([Buffer.from([0x50, 0x4b, 3, 4]), Buffer.alloc(5000, 7)]);
    const apkPath = (await ok(database, 'files', 'upload', file('app.apk', apk))).split('\n')[0] ?? '';
    const imagePath = (await ok(database, 'files', 'upload', file('free.png', png))).split('\n')[0] ?? '';
    await ok(database, 'packages', 'set', 'android', '--url', apkPath);
    const apkKey = apkPath.replace('file/preview/', '');
    const imageKey = imagePath.replace('file/preview/', '');

    interface CliFile {
      key: string;
      size: number;
      uploaded_by: string | null;
      used_by: string[];
    }
    const listed = await json<CliFile[]>(database, 'files', 'list');
    const byKey = new Map(listed.map((entry) => [entry.key, entry]));
    assert.deepEqual(byKey.get(apkKey)?.used_by, ['package:android']);
    assert.deepEqual(byKey.get(imageKey)?.used_by, []);
    assert.equal(byKey.get(apkKey)?.uploaded_by, cliActor());
    assert.equal(byKey.get(apkKey)?.size, apk.byteLength);
    assert.match(await ok(database, 'files', 'list'), new RegExp(`${apkKey} +${apk.byteLength} .* package:android`));

    assert.match(await refused(database, ['files', 'remove', apkKey]), /still used by the android install package/);
    assert.equal((await apiGet(database, `/v1/${apkPath}`)).statusCode, 200);
    assert.equal(await ok(database, 'files', 'remove', imagePath), `removed ${imageKey}\n`);
    assert.equal((await apiGet(database, `/v1/${imagePath}`)).statusCode, 404);
    assert.match(await refused(database, ['files', 'remove', imageKey]), /no hosted file/);
    assert.deepEqual(
      (await json<CliFile[]>(database, 'files', 'list')).map((entry) => entry.key),
      [apkKey],
    );
  });

  test('upload streams a package and refuses one whose first bytes are wrong, storing nothing', async () => {
    const database = await freshDatabase();
    const fake = file('fake.exe', Buffer.alloc(10_000, 1));
    assert.match(await refused(database, ['files', 'upload', fake]), /does not hold a exe package/);
    assert.equal(await ok(database, 'files', 'list'), 'no hosted files\n');
    const tooBig = file('big.apk', Buffer.concat([Buffer.from([0x50, 0x4b, 3, 4]), Buffer.alloc(4000)]));
    assert.match(
      await refused(database, ['files', 'upload', tooBig], { PACKAGE_MAX_BYTES: '2048' }),
      /larger than PACKAGE_MAX_BYTES/,
    );
    assert.equal(await ok(database, 'files', 'list'), 'no hosted files\n');
  });
});

describe('packages', () => {
  test('set --file uploads the package with its true size and SHA-256; the site API offers it', async () => {
    const database = await freshDatabase();
    // An APK is a zip archive: the first bytes say so.
    const data = Buffer.from(Array.from({ length: 70_000 }, (_, index) => (index * 31) % 256));
    data.set([0x50, 0x4b, 3, 4]);
    const path = file('xingliao.apk', data);
    const args = ['--version', '5.1.0', '--released-at', '2024-06-01 12:00:00'];
    const printed = await ok(database, 'packages', 'set', 'android', '--file', path, ...args);
    const sha256 = createHash('sha256').update(data).digest('hex');
    assert.match(printed, new RegExp(`^android\\n(.*\\n)*  sha256 +${sha256}\\n`));

    const [entry] = await json<CliPackage[]>(database, 'packages', 'list');
    assert.deepEqual(entry, {
      os: 'android',
      url: `file/preview/${sha256.slice(0, 16)}-xingliao.apk`,
      version: '5.1.0',
      size: data.byteLength,
      sha256,
      released_at: '2024-06-01 12:00:00',
      release_notes_url: null,
    });
    const offered = (await apiGet(database, '/v1/common/getInstallPackageAddrs')).json();
    assert.equal(offered.length, 1);
    assert.match(offered[0].DownloadURL, new RegExp(`^http://localhost(:\\d+)?/v1/${entry?.url}$`));
    assert.deepEqual(
      [offered[0].size, offered[0].sha256, offered[0].released_at],
      [data.byteLength, sha256, '2024-06-01 12:00:00'],
    );
    const served = await apiGet(database, `/v1/${entry?.url}`);
    assert.deepEqual(served.rawPayload, data);
  });

  test('set --file takes the version of an APK from its manifest, unless --version is given', async () => {
    const database = await freshDatabase();
    const apk = join(import.meta.dirname, 'fixtures', 'xingliao-5.1.0.apk');
    const printed = await ok(database, 'packages', 'set', 'android', '--file', apk);
    assert.match(printed, /^ {2}version +5\.1\.0$/m);
    assert.match(printed, /^version from the manifest of com\.xingliao\.app: 5\.1\.0 \(versionCode 510\)$/m);
    const [entry] = await json<CliPackage[]>(database, 'packages', 'list');
    assert.equal(entry?.version, '5.1.0');
    assert.equal((await apiGet(database, '/v1/common/getInstallPackageAddrs')).json()[0].version, '5.1.0');

    const chosen = await ok(database, 'packages', 'set', 'android', '--file', apk, '--version', '5.1.0-hotfix');
    assert.doesNotMatch(chosen, /manifest/);
    assert.equal((await json<CliPackage[]>(database, 'packages', 'list'))[0]?.version, '5.1.0-hotfix');

    const fake = file('fake.apk', 'PK fake apk bytes');
    const refusal = await refused(database, ['packages', 'set', 'android', '--file', fake]);
    assert.match(refusal, /fake\.apk is not a readable APK \(a zip file\): .*; give the version with --version\n$/);
  });

  test('set --url, list and remove', async () => {
    const database = await freshDatabase();
    const notes = 'https://example.com/notes/5.1';
    await ok(database, 'packages', 'set', 'ios', '--url', 'https://apps.example.com/xl', '--release-notes-url', notes);
    await ok(database, 'packages', 'set', 'windows', '--url', 'https://dl.example.com/xl.exe', '--version', '5.1');
    const listed = await json<CliPackage[]>(database, 'packages', 'list');
    assert.deepEqual(
      listed.map((entry) => [entry.os, entry.url, entry.version, entry.release_notes_url]),
      [
        ['ios', 'https://apps.example.com/xl', null, notes],
        ['windows', 'https://dl.example.com/xl.exe', '5.1', null],
      ],
    );
    const offered = (await apiGet(database, '/v1/common/getInstallPackageAddrs')).json();
    assert.deepEqual(offered[0], { OS: 'ios', DownloadURL: 'https://apps.example.com/xl', release_notes_url: notes });

    assert.match(await ok(database, 'packages', 'list'), /^ios\n {2}url +https:\/\/apps\.example\.com\/xl\n/);
    await ok(database, 'packages', 'remove', 'ios');
    assert.deepEqual(
      (await json<CliPackage[]>(database, 'packages', 'list')).map((entry) => entry.os),
      ['windows'],
    );
  });
});

describe('appconfig and region', () => {
  test('appconfig set turns the CDN on and off, keeping the stored URL', async () => {
    const database = await freshDatabase();
    assert.deepEqual(await json(database, 'appconfig', 'show'), { use_cdn: 0, common_cdn_bucket_url: '' });
    await ok(database, 'appconfig', 'set', '--use-cdn', 'on', '--cdn-url', 'https://cdn.example.com/bucket//');
    const on = { use_cdn: 1, common_cdn_bucket_url: 'https://cdn.example.com/bucket' };
    assert.deepEqual((await apiGet(database, '/v1/common/appconfig')).json(), on);
    await ok(database, 'appconfig', 'set', '--use-cdn', 'off');
    assert.deepEqual(await json(database, 'appconfig', 'show'), { ...on, use_cdn: 0 });
    await ok(database, 'appconfig', 'set', '--use-cdn', 'on');
    assert.match(
      await ok(database, 'appconfig', 'show'),
      /^use_cdn +on\ncdn_url +https:\/\/cdn\.example\.com\/bucket\n$/,
    );
  });

  test('region set from options and from a file; the site API publishes it', async () => {
    const database = await freshDatabase();
    assert.equal(await json(database, 'region', 'show'), null);
    const args = ['--api-addr', 'https://a.example.com', '--api-addr', 'http://b.example.com:8080'];
    await ok(database, 'region', 'set', ...args, '--allocator-addr', 'https://a.example.com/v1/region');
    const fromOptions = {
      api_addrs: [{ addr: 'https://a.example.com' }, { addr: 'http://b.example.com:8080' }],
      allocator_addrs: [{ addr: 'https://a.example.com/v1/region' }],
    };
    assert.deepEqual(await json(database, 'region', 'show'), fromOptions);

    const fromFile = { api_addrs: [{ addr: 'https://c.example.com' }], allocator_addrs: [] };
    await ok(database, 'region', 'set', '--file', file('region.json', JSON.stringify(fromFile)));
    assert.deepEqual(await json(database, 'region', 'show'), fromFile);
    assert.deepEqual((await apiGet(database, '/v1/region')).json(), fromFile);
  });
});

describe('listing', () => {
  test('listing set changes the fields given; the page carries them, a bad number is refused', async () => {
    const database = await freshDatabase();
    const empty = await json<{ icp_filing: string; stores: Record<string, string> }>(database, 'listing', 'show');
    assert.equal(empty.icp_filing, '');
    await ok(database, 'listing', 'set', '--icp', '粤ICP备2023000001号-2', '--police', '粤公网安备 44030502000001号');
    await ok(
      database,
      'listing',
      'set',
      '--store',
      'xiaomi=https://app.mi.com/details?id=a',
      '--verify',
      'baidu=codeva-x1',
    );
    const saved = await json<Record<string, unknown>>(database, 'listing', 'show');
    assert.equal(saved['icp_filing'], '粤ICP备2023000001号-2');
    assert.equal(saved['police_filing'], '粤公网安备44030502000001号', 'the space is dropped');
    assert.equal((saved['stores'] as Record<string, string>)['xiaomi'], 'https://app.mi.com/details?id=a');
    const page = (await apiGet(database, '/')).body;
    assert.ok(page.includes('>粤ICP备2023000001号-2</a>'));
    assert.ok(page.includes('<meta name="baidu-site-verification" content="codeva-x1">'));
    assert.match(await refused(database, ['listing', 'set', '--icp', 'ICP 12345']), /icp_filing/);
    assert.match(await refused(database, ['listing', 'set', '--store', 'nokia=https://x.example']), /--store/);
    await ok(database, 'listing', 'set', '--icp', '');
    assert.ok(!(await apiGet(database, '/')).body.includes('ICP备'));
  });
});

describe('demo load', () => {
  test('loads the demo content once', async () => {
    const database = await freshDatabase();
    assert.match(await ok(database, 'demo', 'load'), /^loaded the demo content\n$/);
    assert.match(await ok(database, 'demo', 'load'), /^loaded nothing/);
    assert.ok((await json<CliBulletin[]>(database, 'bulletins', 'list')).length > 0);
    assert.equal((await json<CliPackage[]>(database, 'packages', 'list')).length, 4);
  });
});

describe('bad input', () => {
  test('every kind exits 2 with one error line and changes nothing', async (t) => {
    const database = await freshDatabase();
    const id = (await ok(database, 'bulletins', 'add', '--title', 'Kept', '--content', 'kept')).trim();
    await ok(database, 'packages', 'set', 'android', '--url', 'https://dl.example.com/a.apk');
    await ok(
      database,
      'region',
      'set',
      '--api-addr',
      'https://a.example.com',
      '--allocator-addr',
      'https://a.example.com',
    );
    const snapshot = async () => [
      await ok(database, 'bulletins', 'list', '--json'),
      await ok(database, 'packages', 'list', '--json'),
      await ok(database, 'appconfig', 'show', '--json'),
      await ok(database, 'region', 'show', '--json'),
    ];
    const before = await snapshot();

    const text = file('notes.txt', 'plain text');
    const missing = join(workDir, 'missing.html');
    const add = ['bulletins', 'add', '--title', 'New', '--content', 'x'];
    const cases: Record<string, string[][]> = {
      'unknown command': [['publish'], ['bulletins', 'publish'], ['packages', 'list', 'extra']],
      'unknown option': [['bulletins', 'list', '--all']],
      'missing option': [
        ['bulletins', 'add', '--content', 'x'],
        ['bulletins', 'add', '--title', 'x'],
        ['bulletins', 'edit', id],
      ],
      'invalid option': [
        ['bulletins', 'add', '--title', '   ', '--content', 'x'],
        ['bulletins', 'add', '--title', 'x'.repeat(201), '--content', 'x'],
        [...add, '--content-file', text],
        ['packages', 'set', 'linux', '--url', 'https://dl.example.com/a'],
        ['packages', 'set', 'ios'],
        ['appconfig', 'set', '--use-cdn', 'maybe'],
        ['appconfig', 'set', '--use-cdn', 'on'],
        ['region', 'set', '--api-addr', 'https://a.example.com'],
      ],
      'non-integer id': [
        ['bulletins', 'show', 'abc'],
        ['bulletins', 'pin', '1.5'],
        ['bulletins', 'remove', '0'],
        ['bulletins', 'unpin', '2147483648'],
      ],
      'unknown id': [
        ['bulletins', 'show', '999'],
        ['bulletins', 'edit', '999', '--title', 'x'],
        ['bulletins', 'remove', '999'],
        ['bulletins', 'pin', '999'],
      ],
      'unknown entry': [
        ['packages', 'remove', 'ios'],
        ['packages', 'set', 'ios', '--url', 'file/preview/0123456789abcdef-none.ipa'],
      ],
      'bad URL': [
        ['packages', 'set', 'ios', '--url', 'ftp://dl.example.com/a'],
        ['packages', 'set', 'ios', '--url', 'https://dl.example.com/a', '--release-notes-url', 'javascript:alert(1)'],
        ['appconfig', 'set', '--use-cdn', 'on', '--cdn-url', 'not a url'],
        ['appconfig', 'set', '--use-cdn', 'on', '--cdn-url', 'https://cdn.example.com/b?'],
        ['appconfig', 'set', '--use-cdn', 'on', '--cdn-url', 'https://cdn.example.com/b#x'],
        ['packages', 'set', 'ios', '--url', 'https:evil.example/x.ipa'],
        ['packages', 'set', 'ios', '--url', '"><svg/onload=alert(1)>'],
        ['region', 'set', '--api-addr', 'ftp://a.example.com', '--allocator-addr', 'https://a.example.com'],
        [
          'region',
          'set',
          '--file',
          file('bad-addr.json', '{"api_addrs":[{"addr":"javascript:x"}],"allocator_addrs":[]}'),
        ],
      ],
      'bad date': [
        [...add, '--created-at', '2024-02-30 10:00:00'],
        [...add, '--created-at', 'yesterday'],
        ['packages', 'set', 'ios', '--url', 'https://dl.example.com/a', '--released-at', '2024-13-01 00:00:00'],
      ],
      'unreadable file': [
        ['bulletins', 'add', '--title', 'x', '--content-file', missing],
        ['files', 'upload', missing],
        ['region', 'set', '--file', missing],
        ['region', 'set', '--file', file('broken.json', '{"api_addrs": [')],
        ['region', 'set', '--file', file('shape.json', '{"api_addrs":[{"addr":3}]}')],
      ],
      // Without --version, an .apk must be one whose manifest can be read.
      'unreadable APK': [
        ['packages', 'set', 'android', '--file', file('fake.apk', 'PK fake apk bytes')],
        ['packages', 'set', 'android', '--file', join(import.meta.dirname, 'fixtures', 'no-manifest.apk')],
      ],
      'wrong file type': [
        ['files', 'upload', text],
        ['packages', 'set', 'ios', '--file', file('app.png', png)],
      ],
    };
    for (const [kind, invocations] of Object.entries(cases)) {
      await t.test(kind, async () => {
        await Promise.all(invocations.map((args) => refused(database, args)));
      });
    }
    await t.test('bad environment', async () => {
      await refused(database, ['bulletins', 'list'], { TIME_ZONE: 'Mars/Olympus' });
      await refused(database, ['bulletins', 'list'], { DATABASE_URL: 'mysql://localhost/site' });
    });
    assert.deepEqual(await snapshot(), before);
  });

  test('an unreachable database exits 1 with the reason', async () => {
    const database = await freshDatabase();
    const result = await run(database, ['bulletins', 'list'], { DATABASE_URL: 'postgres://nobody@127.0.0.1:1/site' });
    assert.equal(result.code, 1);
    assert.match(result.stderr, /^error: .*ECONNREFUSED/);
  });
});

describe('the audit log', () => {
  test('every change the command line makes is in the console’s audit log, with its source', async () => {
    const database = await freshDatabase();
    const first = (await ok(database, 'bulletins', 'add', '--title', 'One', '--content', '<p>1</p>')).trim();
    await ok(database, 'bulletins', 'add', '--title', 'Two', '--content', '<p>2</p>');
    await ok(database, 'bulletins', 'edit', first, '--title', 'One, edited');
    await ok(database, 'bulletins', 'pin', first);
    await ok(database, 'bulletins', 'remove', first);
    const stored = (await ok(database, 'files', 'upload', file('audit.png', png))).split('\n')[0] ?? '';
    await ok(database, 'files', 'remove', stored.replace('file/preview/', ''));
    await ok(database, 'packages', 'set', 'ios', '--url', 'https://apps.example.com/xl');
    await ok(database, 'packages', 'remove', 'ios');
    await ok(database, 'appconfig', 'set', '--use-cdn', 'on', '--cdn-url', 'https://cdn.example.com/b');
    await ok(
      database,
      'region',
      'set',
      '--api-addr',
      'https://a.example.com',
      '--allocator-addr',
      'https://a.example.com/r',
    );
    const page = (await apiGet(database, '/v1/admin/audit?page_size=100', bearer)).json<{
      list: { actor: string; action: string; target: string; before: unknown; after: unknown }[];
    }>();
    const { username } = userInfo();
    assert.deepEqual(page.list.map((entry) => entry.action).reverse(), [
      'bulletin.create',
      'bulletin.create',
      'bulletin.update',
      'bulletin.update',
      'bulletin.remove',
      'file.upload',
      'file.remove',
      'packages.set',
      'packages.remove',
      'appconfig.set',
      'region.set',
    ]);
    for (const entry of page.list) assert.equal(entry.actor, `cli:${username}`, entry.action);
    const edit = page.list.find((entry) => entry.action === 'bulletin.update');
    assert.equal((edit?.after as { title?: string } | undefined)?.title, 'One, edited');
  });
});
