import assert from 'node:assert/strict';
import { beforeEach, describe, mock, test } from 'node:test';
import { getInstallPackages } from '../src/lib/api/get-install-packages';

const android = { OS: 'android', DownloadURL: 'https://d.example.com/app.apk' };
const ios = { OS: 'ios', DownloadURL: 'https://d.example.com/ios' };
const noCdn = { useCdn: false, bucketUrl: '' };

/** The API answers every call with `body`, as text. */
function answering(body: string): void {
  mock.method(globalThis, 'fetch', async () => new Response(body, { headers: { 'content-type': 'text/plain' } }));
}

beforeEach(() => {
  localStorage.clear();
  mock.restoreAll();
  mock.method(console, 'warn', () => undefined);
});

describe('getInstallPackages reads every form a server build sends', () => {
  const joined = `${JSON.stringify(android)}, ${JSON.stringify(ios)}`;
  const forms: [string, string][] = [
    ['a JSON array', JSON.stringify([android, ios])],
    ['a JSON-quoted string of objects joined by ", "', JSON.stringify(joined)],
    ['the bare text of objects joined by ", ", no JSON as a whole', joined],
  ];
  for (const [name, body] of forms) {
    test(name, async () => {
      answering(body);
      const entries = await getInstallPackages('https://api.example.com', noCdn);
      assert.deepEqual(
        entries.map((entry) => [entry.os, entry.downloadUrl]),
        [
          ['android', 'https://d.example.com/app.apk'],
          ['ios', 'https://d.example.com/ios'],
        ],
      );
    });
  }
});
