/**
 * electron-updater's own NsisUpdater (6.8.10, with a stand-in app and a Node HTTP executor, no
 * Electron) checking this server during a staged roll-out (docs/releases.md#staged-roll-out): its
 * own isStagingMatch reads the stagingPercentage of latest.yml against the install's staging id,
 * and a halted roll-out's latest.yml makes no install move and none go back.
 */
import assert from 'node:assert/strict';
import http, { type RequestOptions } from 'node:http';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { HttpExecutor } from 'builder-util-runtime';
import { NsisUpdater } from 'electron-updater';
import { startElectronFeed, type ElectronFeed } from './electron-feed.js';
import { bearer, hostFile, type TestApp } from './helpers.js';

let t: TestApp;
let feed: string;
let dir: string;
let server: ElectronFeed;
before(async () => {
  server = await startElectronFeed();
  ({ t, feed, dir } = server);
});
after(async () => {
  await server?.close();
});

/** What electron-updater asks of the app (its AppAdapter, which it does not export). */
type AppAdapter = NonNullable<ConstructorParameters<typeof NsisUpdater>[1]>;

/** electron-updater's requests through Node's http, as its own tests do without Electron. */
class NodeExecutor extends HttpExecutor<http.ClientRequest> {
  createRequest(options: RequestOptions, callback: (response: http.IncomingMessage) => void): http.ClientRequest {
    return http.request({ ...options, agent: false }, callback);
  }
}

/** An installed Windows app at `version` whose staging id places it at `place` (0 to 1):
 * electron-updater reads the id's last four bytes as that fraction of 0xffffffff. */
async function install(version: string, place: number): Promise<NsisUpdater> {
  const userData = await mkdtemp(join(dir, 'install-'));
  const tail = Math.floor(place * 0xffffffff)
    .toString(16)
    .padStart(8, '0');
  await writeFile(join(userData, '.updaterId'), `6ba7b810-9dad-51d1-80b4-0000${tail}`);
  const app: AppAdapter = {
    version,
    name: 'xingliao',
    isPackaged: true,
    appUpdateConfigPath: join(userData, 'app-update.yml'),
    userDataPath: userData,
    baseCachePath: userData,
    whenReady: () => Promise.resolve(),
    relaunch: () => undefined,
    quit: () => undefined,
    onQuit: () => undefined,
  };
  const updater = new NsisUpdater(null, app);
  Object.assign(updater, { httpExecutor: new NodeExecutor(), _testOnlyOptions: { platform: 'win32' } });
  updater.logger = null;
  updater.autoDownload = false;
  updater.setFeedURL({ provider: 'generic', url: feed });
  return updater;
}

/** The version the install is told to update to, or '' for none. */
async function check(version: string, place: number): Promise<string> {
  const result = await (await install(version, place)).checkForUpdates();
  assert.ok(result !== null);
  return result.isUpdateAvailable ? result.updateInfo.version : '';
}

const admin = (method: 'POST' | 'PUT', url: string, payload?: object) =>
  t.app.inject({ method, url: `/v1/admin${url}`, headers: bearer, ...(payload === undefined ? {} : { payload }) });

async function publish(version: string, rolloutPercentage?: number): Promise<void> {
  const exe = Buffer.concat([Buffer.from('MZ', 'latin1'), Buffer.alloc(4000, 1), Buffer.from(version)]);
  const key = await hostFile(t.app, `xingliao-${version}.exe`, exe);
  const body = { os: 'windows', file_key: key, version, rollout_percentage: rolloutPercentage };
  const res = await admin('POST', '/releases', body);
  assert.equal(res.statusCode, 201, res.body);
}

test('NsisUpdater updates only the installs inside the share, and none while halted', async () => {
  await publish('5.0.0');
  await publish('5.1.0', 25);
  assert.equal(await check('5.0.0', 0.24), '5.1.0');
  assert.equal(await check('5.0.0', 0.26), '');

  assert.equal((await admin('PUT', '/rollouts/windows', { percentage: 50 })).statusCode, 200);
  assert.equal(await check('5.0.0', 0.26), '5.1.0');
  assert.equal(await check('5.0.0', 0.51), '');

  assert.equal((await admin('POST', '/rollouts/windows/halt')).statusCode, 200);
  assert.equal(await check('5.0.0', 0.01), '');
  // Those below the previous release still get it; those on the new one are not moved back.
  assert.equal(await check('4.9.0', 0.99), '5.0.0');
  assert.equal(await check('5.1.0', 0.01), '');

  assert.equal((await admin('POST', '/rollouts/windows/resume')).statusCode, 200);
  assert.equal(await check('5.0.0', 0.26), '5.1.0');
});
