/**
 * A production start without PUBLIC_URL says what follows the Host header then: feed entry ids
 * and share addresses (docs/public-api.md#host-rules). The built server as a real process.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { createTestDatabase, spawnServer, testEnv, type TestDatabase } from './helpers.js';

let database: TestDatabase;
before(async () => {
  database = await createTestDatabase();
});
after(() => database.drop());

/** The start's log lines, read once it serves. */
async function startLogs(env: Record<string, string>): Promise<{ level: number; msg: string }[]> {
  const server = await spawnServer(testEnv(database, env));
  await server.logged('serving on');
  await server.stop();
  return server.logs.map((line) => JSON.parse(line) as { level: number; msg: string });
}

const warning = (lines: { level: number; msg: string }[]) => lines.find((line) => line.msg.includes('PUBLIC_URL'));

test('a production start without PUBLIC_URL warns that feed ids and share addresses follow the Host', async () => {
  const line = warning(await startLogs({ NODE_ENV: 'production' }));
  assert.ok(line !== undefined, 'a line names PUBLIC_URL');
  assert.equal(line.level, 40, 'at warn');
  assert.match(line.msg, /feed entry ids and share addresses \(og:url\) follow each request's Host header/);
});

test('with PUBLIC_URL, or in development, there is nothing to warn of', async () => {
  assert.equal(warning(await startLogs({ NODE_ENV: 'production', PUBLIC_URL: 'https://chat.example.com' })), undefined);
  assert.equal(warning(await startLogs({ NODE_ENV: 'development' })), undefined);
});
