/**
 * electron-updater 6.8.10's own MacUpdater and NsisUpdater (a stand-in `electron` module and a
 * Node HTTP executor, no Electron) checking and downloading a release whose update payload is not
 * the file people download (docs/releases.md#update-payloads): the download passes through
 * electron-updater's own SHA-512 check, and the site keeps offering the download.
 */
import assert from 'node:assert/strict';
import http, { type RequestOptions } from 'node:http';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import Module from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { CancellationToken, configureRequestOptions, configureRequestUrl, HttpExecutor } from 'builder-util-runtime';
import type { DownloadOptions } from 'builder-util-runtime';
import type { AppUpdater } from 'electron-updater';
import { startElectronFeed, type ElectronFeed } from './electron-feed.js';
import { bearer, hostFile, type TestApp } from './helpers.js';

/** What MacUpdater asks of Electron's own autoUpdater (Squirrel.Mac): only to be told where the
 * downloaded zip is served; nothing is installed. */
const squirrel = {
  feeds: [] as { url: string }[],
  on: () => squirrel,
  once: () => squirrel,
  removeListener: () => squirrel,
  emit: () => false,
  setFeedURL: (feed: { url: string }) => squirrel.feeds.push(feed),
  checkForUpdates: () => undefined,
};
// electron-updater requires `electron` when a MacUpdater is made; this file resolves it to the stand-in.
const standIn = join(tmpdir(), 'chat-site-electron-stand-in.js');
const loader = Module as unknown as {
  _resolveFilename: (request: string, ...rest: unknown[]) => string;
  _cache: Record<string, unknown>;
};
const resolve = loader._resolveFilename;
loader._resolveFilename = (request, ...rest) => (request === 'electron' ? standIn : resolve(request, ...rest));
loader._cache[standIn] = { id: standIn, filename: standIn, loaded: true, exports: { autoUpdater: squirrel } };
const { MacUpdater, NsisUpdater } = await import('electron-updater');

let t: TestApp;
let feed: string;
let dir: string;
let server: ElectronFeed;
before(async () => {
  server = await startElectronFeed();
  ({ t, feed, dir } = server);
});
after(async () => {
  loader._resolveFilename = resolve;
  Reflect.deleteProperty(loader._cache, standIn);
  await server?.close();
});

/** electron-updater's requests and downloads through Node's http, as its Electron executor makes
 * them through Electron's net module. */
class NodeExecutor extends HttpExecutor<http.ClientRequest> {
  createRequest(options: RequestOptions, callback: (response: http.IncomingMessage) => void): http.ClientRequest {
    return http.request({ ...options, agent: false }, callback);
  }

  async download(url: URL, destination: string, options: DownloadOptions): Promise<string> {
    return options.cancellationToken.createPromise((resolve, reject, onCancel) => {
      const requestOptions = { headers: options.headers ?? undefined };
      configureRequestUrl(url, requestOptions);
      configureRequestOptions(requestOptions);
      this.doDownload(
        requestOptions,
        {
          destination,
          options,
          onCancel,
          callback: (error) => (error === null || error === undefined ? resolve(destination) : reject(error)),
          responseHandler: null,
        },
        0,
      );
    });
  }
}

type AppAdapter = NonNullable<ConstructorParameters<typeof NsisUpdater>[1]>;

async function installed<T extends AppUpdater>(make: (app: AppAdapter) => T, platform: 'darwin' | 'win32'): Promise<T> {
  const userData = await mkdtemp(join(dir, 'install-'));
  // What electron-builder packs into the app: the feed, and where downloads are kept.
  await writeFile(
    join(userData, 'app-update.yml'),
    `provider: generic\nurl: ${feed}\nupdaterCacheDirName: xingliao-updater\n`,
  );
  const app: AppAdapter = {
    version: '5.0.0',
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
  const updater = make(app);
  Object.assign(updater, { httpExecutor: new NodeExecutor(), _testOnlyOptions: { platform } });
  updater.logger = null;
  updater.autoDownload = false;
  updater.autoInstallOnAppQuit = false;
  updater.setFeedURL({ provider: 'generic', url: feed });
  return updater;
}

/** Checks, then downloads through electron-updater's own SHA-512 check; answers the file it kept. */
async function update(updater: AppUpdater): Promise<Buffer> {
  const result = await updater.checkForUpdates();
  assert.ok(result?.isUpdateAvailable, 'an update is offered');
  const [path] = await updater.downloadUpdate(new CancellationToken());
  assert.ok(path !== undefined);
  return readFile(path);
}

const admin = (payload: object) =>
  t.app.inject({ method: 'POST', url: '/v1/admin/releases', headers: bearer, payload });

const dmg = (version: string) => {
  const data = Buffer.alloc(8192, 2);
  Buffer.from(version).copy(data);
  Buffer.from('koly').copy(data, data.byteLength - 512);
  return data;
};
const zip = Buffer.concat([Buffer.from('PK\x03\x04', 'latin1'), Buffer.alloc(6000, 4), Buffer.from('Xingliao.app')]);

test('MacUpdater: the .dmg alone cannot update an app, the .zip payload does; the site keeps the .dmg', async () => {
  const first = await hostFile(t.app, 'Xingliao-5.1.0.dmg', dmg('5.1.0'));
  assert.equal((await admin({ os: 'mac', file_key: first, version: '5.1.0' })).statusCode, 201);
  const alone = await installed((app) => new MacUpdater(undefined, app), 'darwin');
  await assert.rejects(update(alone), { code: 'ERR_UPDATER_ZIP_FILE_NOT_FOUND' });

  const download = await hostFile(t.app, 'Xingliao-5.2.0.dmg', dmg('5.2.0'));
  const payload = await hostFile(t.app, 'Xingliao-5.2.0-mac.zip', zip);
  const res = await admin({
    os: 'mac',
    file_key: download,
    version: '5.2.0',
    payloads: [{ role: 'electron', file_key: payload }],
  });
  assert.equal(res.statusCode, 201, res.body);
  const updater = await installed((app) => new MacUpdater(undefined, app), 'darwin');
  try {
    assert.deepEqual(await update(updater), zip);
    // Squirrel.Mac is handed the zip electron-updater checked.
    const served = await fetch(squirrel.feeds.at(-1)?.url ?? '', {
      headers: { authorization: `Basic ${Buffer.from('x:y').toString('base64')}` },
    });
    assert.equal(served.status, 401, 'the proxy for Squirrel.Mac is up, behind its password');
  } finally {
    (updater as unknown as { closeServerIfExists(): void }).closeServerIfExists();
  }
  const dl = await t.app.inject('/dl/mac');
  assert.equal(dl.headers.location?.endsWith(`/v1/file/preview/${download}`), true, dl.headers.location);
  const yml = await t.app.inject('/v1/common/pcupdater/latest-mac.yml');
  assert.match(yml.body, new RegExp(`files:\\n  - url: ".*${payload}"[^]*  - url: ".*${download}"`));
});

test('NsisUpdater: a release downloaded as an .msi updates installed apps from its .exe payload', async () => {
  const msi = Buffer.concat([Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]), Buffer.alloc(5000, 6)]);
  const exe = Buffer.concat([Buffer.from('MZ', 'latin1'), Buffer.alloc(7000, 8), Buffer.from('setup 5.2.0')]);
  const download = await hostFile(t.app, 'Xingliao-5.2.0.msi', msi);
  const payload = await hostFile(t.app, 'Xingliao-Setup-5.2.0.exe', exe);
  const res = await admin({
    os: 'windows',
    file_key: download,
    version: '5.2.0',
    payloads: [{ role: 'electron', file_key: payload }],
  });
  assert.equal(res.statusCode, 201, res.body);
  const updater = await installed((app) => new NsisUpdater(null, app), 'win32');
  // No publisher to check the installer's Authenticode signature against: only its SHA-512 is checked.
  Object.assign(updater, { verifyUpdateCodeSignature: () => Promise.resolve(null) });
  assert.deepEqual(await update(updater), exe);
  const dl = await t.app.inject('/dl/windows');
  assert.equal(dl.headers.location?.endsWith(`/v1/file/preview/${download}`), true, dl.headers.location);
});
