/**
 * What the electron-updater tests share: the app listening on a real port, since
 * electron-updater fetches latest.yml and the files over HTTP, and a folder for its downloads.
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestApp, type TestApp } from './helpers.js';

export interface ElectronFeed {
  t: TestApp;
  /** The generic provider's URL: where latest.yml and latest-mac.yml are. */
  feed: string;
  /** electron-updater's cache folder for this file's tests. */
  dir: string;
  close(): Promise<void>;
}

export async function startElectronFeed(): Promise<ElectronFeed> {
  const t = await startTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const address = t.app.server.address();
  assert.ok(address !== null && typeof address === 'object');
  const dir = await mkdtemp(join(tmpdir(), 'chat-site-electron-'));
  return {
    t,
    feed: `http://127.0.0.1:${address.port}/v1/common/pcupdater/`,
    dir,
    close: async () => {
      await t.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
