/**
 * Staged roll-outs (docs/releases.md#staged-roll-out) through the admin API and the update checks:
 * many simulated installs (each its own address and User-Agent): the share offered the new
 * release stays within 2 points of the percentage, and those that ask get exactly that; raising keeps those already in; halting
 * offers the previous release, on the site too; electron-updater gets stagingPercentage. On
 * SQLite, and on PostgreSQL with TEST_POSTGRES_URL.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { parse } from 'yaml';
import { inShare } from '../src/updates/rollout.js';
import { bearer, hostFile, startTestApp, type TestApp } from './helpers.js';

let t: TestApp;
before(async () => {
  t = await startTestApp();
});
after(() => t.close());

const admin = (method: 'POST' | 'PUT' | 'GET', url: string, payload?: object) =>
  t.app.inject({ method, url: `/v1/admin${url}`, headers: bearer, ...(payload === undefined ? {} : { payload }) });

async function publish(body: object): Promise<number> {
  const res = await admin('POST', '/releases', body);
  assert.equal(res.statusCode, 201, res.body);
  return res.json<{ id: number }>().id;
}

/** Installs, each an address of its own (loopback, never reached: inject makes no socket). 10,000
 * put the share's standard deviation at 0.5 points at 50 %, so 2 points is 4 of them: the salt is
 * new each roll-out, and fewer would fail now and then. */
const installs = Array.from({ length: 10_000 }, (_, i) => ({
  remoteAddress: `127.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`,
  userAgent: `okhttp/4.12.0 install-${i % 7}`,
}));

/** The first installs ask through HTTP (each check is also counted, two writes: all 10,000 would
 * take minutes on PostgreSQL); their answers must be exactly where the roll-out places them. */
const asking = 500;

/** Whether each install is in the android roll-out's share, by the salt it keeps. */
async function placed(): Promise<boolean[]> {
  const rollout = await t.db.kysely
    .selectFrom('rollouts')
    .selectAll()
    .where('os', '=', 'android')
    .executeTakeFirstOrThrow();
  return installs.map((install) => inShare(rollout, { address: install.remoteAddress, userAgent: install.userAgent }));
}

const percentIn = (inside: boolean[]) => (inside.filter(Boolean).length * 100) / inside.length;

/** What each asking install at 4.0.0 is offered when `inside` places it. */
const expected = (inside: boolean[]) => inside.slice(0, asking).map((yes) => (yes ? '5.1.0' : '5.0.0'));

/** The version each of the first `count` installs at `version` is offered by the app's own check
 * ('' for none). */
async function offered(version: string, count = asking): Promise<string[]> {
  const answers: string[] = [];
  for (const install of installs.slice(0, count)) {
    const res = await t.app.inject({
      url: `/v1/common/appversion/android/${version}`,
      remoteAddress: install.remoteAddress,
      headers: { 'user-agent': install.userAgent },
    });
    answers.push(res.json<{ app_version?: string }>().app_version ?? '');
  }
  return answers;
}

const card = async (os: string) =>
  (await admin('GET', '/releases'))
    .json<{ platforms: { os: string; rollout: unknown; current: { version: string } }[] }>()
    .platforms.find((platform) => platform.os === os);

interface UpdateInfo {
  version: string;
  stagingPercentage?: number;
}

const dl = async (os: string) => (await t.app.inject({ url: `/dl/${os}` })).headers.location;

test('a staged roll-out needs a release before it, and a platform with none cannot be changed', async () => {
  const first = await admin('POST', '/releases', {
    os: 'android',
    url: 'https://example.com/xingliao-5.0.0.apk',
    version: '5.0.0',
    rollout_percentage: 10,
  });
  assert.equal(first.statusCode, 400);
  assert.match(first.json<{ msg: string }>().msg, /^body\/rollout_percentage: android has no current release/);
  assert.equal((await admin('PUT', '/rollouts/android', { percentage: 20 })).statusCode, 409);
  assert.equal((await admin('POST', '/rollouts/android/halt')).statusCode, 409);
});

test('the share offered follows the percentage, raised, halted and resumed', async () => {
  await publish({ os: 'android', url: 'https://example.com/xingliao-5.0.0.apk', version: '5.0.0' });
  await publish({
    os: 'android',
    url: 'https://example.com/xingliao-5.1.0.apk',
    version: '5.1.0',
    rollout_percentage: 10,
  });
  assert.deepEqual(
    { ...((await card('android'))?.rollout as object), updated_at: undefined },
    {
      release_id: 2,
      version: '5.1.0',
      previous_release_id: 1,
      previous_version: '5.0.0',
      percentage: 10,
      halted: false,
      updated_at: undefined,
    },
  );
  // The site's card offers the new release to people who install now.
  assert.equal(await dl('android'), 'https://example.com/xingliao-5.1.0.apk');

  const atTen = await placed();
  assert.ok(Math.abs(percentIn(atTen) - 10) <= 2, `${percentIn(atTen)} % offered at 10 %`);
  // Outside the share, an install below the previous release is offered that one; asking again
  // gives each install the same answer.
  assert.deepEqual(await offered('4.0.0'), expected(atTen));
  assert.deepEqual(await offered('4.0.0'), expected(atTen));

  const raised = await admin('PUT', '/rollouts/android', { percentage: 50 });
  assert.equal(raised.statusCode, 200, raised.body);
  const atFifty = await placed();
  assert.ok(Math.abs(percentIn(atFifty) - 50) <= 2, `${percentIn(atFifty)} % offered at 50 %`);
  atTen.forEach((inside, i) => inside && assert.ok(atFifty[i], `install ${i} left the share`));
  assert.deepEqual(await offered('4.0.0'), expected(atFifty));

  const halted = await admin('POST', '/rollouts/android/halt');
  assert.equal(halted.json<{ halted: boolean }>().halted, true);
  assert.ok((await offered('4.0.0')).every((answer) => answer === '5.0.0'));
  // Those already on it are left there; the site offers the previous release again.
  assert.deepEqual(new Set(await offered('5.1.0')), new Set(['']));
  assert.equal(await dl('android'), 'https://example.com/xingliao-5.0.0.apk');
  assert.equal((await card('android'))?.current.version, '5.0.0');

  await admin('POST', '/rollouts/android/resume');
  assert.deepEqual(await offered('4.0.0'), expected(atFifty));
  assert.equal(await dl('android'), 'https://example.com/xingliao-5.1.0.apk');

  await admin('PUT', '/rollouts/android', { percentage: 100 });
  assert.ok((await offered('4.0.0')).every((answer) => answer === '5.1.0'));

  const actions = (await admin('GET', '/audit?page_size=50'))
    .json<{ list: { action: string; target: string }[] }>()
    .list.filter((entry) => entry.target === 'rollout:android')
    .map((entry) => entry.action);
  assert.deepEqual(actions, [
    'release.rollout.percentage',
    'release.rollout.resume',
    'release.rollout.halt',
    'release.rollout.percentage',
  ]);
});

test('a share outside 1 to 100 is refused', async () => {
  for (const percentage of [0, 101, 12.5]) {
    assert.equal((await admin('PUT', '/rollouts/android', { percentage })).statusCode, 400);
  }
});

test('making a release current by hand ends the roll-out', async () => {
  await publish({
    os: 'android',
    url: 'https://example.com/xingliao-5.2.0.apk',
    version: '5.2.0',
    rollout_percentage: 5,
  });
  assert.notEqual((await card('android'))?.rollout, null);
  assert.equal((await admin('POST', '/releases/2/rollback')).statusCode, 200);
  assert.equal((await card('android'))?.rollout, null);
  assert.ok((await offered('4.0.0')).every((answer) => answer === '5.1.0'));
});

test('a package entry set another way ends the roll-out', async () => {
  await publish({
    os: 'android',
    url: 'https://example.com/xingliao-5.3.0.apk',
    version: '5.3.0',
    rollout_percentage: 5,
  });
  const list = [{ OS: 'android', DownloadURL: 'https://example.com/xingliao-5.4.0.apk', version: '5.4.0' }];
  const res = await t.app.inject({ method: 'PUT', url: '/v1/admin/packages', headers: bearer, payload: list });
  assert.equal(res.statusCode, 200, res.body);
  assert.equal((await card('android'))?.rollout, null);
  assert.ok((await offered('4.0.0')).every((answer) => answer === '5.4.0'));
  assert.equal((await admin('POST', '/rollouts/android/halt')).statusCode, 409);
});

test("electron-updater's latest.yml carries stagingPercentage, and the previous release while halted", async () => {
  const exe = (version: string) =>
    Buffer.concat([Buffer.from('MZ', 'latin1'), Buffer.alloc(4000, 1), Buffer.from(version)]);
  const key = async (version: string) => hostFile(t.app, `xingliao-${version}.exe`, exe(version));
  await publish({ os: 'windows', file_key: await key('5.0.0'), version: '5.0.0' });
  await publish({ os: 'windows', file_key: await key('5.1.0'), version: '5.1.0', rollout_percentage: 25 });
  const yml = async () => {
    const info = parse((await t.app.inject({ url: '/v1/common/pcupdater/latest.yml' })).body) as UpdateInfo;
    return [info.version, info.stagingPercentage];
  };
  assert.deepEqual(await yml(), ['5.1.0', 25]);
  await admin('POST', '/rollouts/windows/halt');
  assert.deepEqual(await yml(), ['5.0.0', undefined]);
  await admin('POST', '/rollouts/windows/resume');
  await admin('PUT', '/rollouts/windows', { percentage: 100 });
  assert.deepEqual(await yml(), ['5.1.0', undefined]);
});
