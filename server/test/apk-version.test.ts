/**
 * Reading an APK's version from its manifest. The fixtures in ./fixtures are written by
 * scripts/make-apk-fixtures.ts (Android's own `aapt dump xmltree` reads the valid ones the same).
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { androidManifest, fixtureFacts, writeFixtures, writeZip } from '../../scripts/make-apk-fixtures.js';
import { ApkVersionError, readApkVersion } from '../src/packages/apk-version.js';

const fixtures = join(import.meta.dirname, 'fixtures');
const fixture = (name: string) => join(fixtures, name);
const workDir = mkdtempSync(join(tmpdir(), 'chat-site-apk-'));
after(() => rmSync(workDir, { recursive: true, force: true }));

/** Bytes this process has read through read(2) and its kind, from /proc/self/io. */
function bytesRead(): number {
  const rchar = /^rchar: (\d+)$/m.exec(readFileSync('/proc/self/io', 'utf8'))?.[1];
  assert.ok(rchar !== undefined, 'no rchar in /proc/self/io');
  return Number(rchar);
}

describe('reading the version of an APK', () => {
  test('answers the version name, version code and package of the manifest', async () => {
    // UTF-16 string pool (aapt), the manifest deflated and second in the zip.
    assert.deepEqual(await readApkVersion(fixture('xingliao-5.1.0.apk')), {
      versionName: '5.1.0',
      versionCode: 510,
      packageName: 'com.xingliao.app',
    });
  });

  test('reads a UTF-8 string pool (aapt2) and a version name that is not ASCII', async () => {
    const facts = fixtureFacts['xingliao-utf8.apk'];
    assert.deepEqual(await readApkVersion(fixture('xingliao-utf8.apk')), facts);
  });

  test('reads a 300 MB APK through its central directory, not the whole file', async () => {
    const path = join(workDir, 'large.apk');
    const facts = { packageName: 'com.xingliao.large', versionCode: 7, versionName: '7.0' };
    // The manifest comes after 300 MB of native library (a hole: no disk is spent on it).
    writeZip(path, [
      { name: 'lib/arm64-v8a/libapp.so', zeros: 300 * 1024 * 1024 },
      { name: 'AndroidManifest.xml', data: androidManifest(facts), deflate: true },
    ]);
    const before = bytesRead();
    assert.deepEqual(await readApkVersion(path), facts);
    const read = bytesRead() - before;
    assert.ok(read < 1024 * 1024, `read ${read} bytes of a 300 MB file`);
  });

  test('refuses what is not a readable APK with an ApkVersionError naming the file and why', async (t) => {
    const whole = readFileSync(fixture('xingliao-5.1.0.apk'));
    const cutZip = join(workDir, 'cut.apk');
    writeFileSync(cutZip, whole.subarray(0, whole.length - 40));
    const text = join(workDir, 'notes.apk');
    writeFileSync(text, 'not a zip at all\n');
    const cases: [string, string, RegExp][] = [
      ['a missing file', join(workDir, 'missing.apk'), /^cannot read .*missing\.apk: ENOENT/],
      ['a directory', workDir, /^cannot read .*: EISDIR/],
      ['a text file', text, /notes\.apk is not a readable APK \(a zip file\): end of central directory/],
      [
        "the repository's placeholder demo APK",
        join(import.meta.dirname, '../demo-assets/xingliao-android-demo.apk'),
        /xingliao-android-demo\.apk is not a readable APK \(a zip file\)/,
      ],
      ['a zip cut short', cutZip, /cut\.apk is not a readable APK \(a zip file\)/],
      ['a zip without a manifest', fixture('no-manifest.apk'), /no-manifest\.apk has no AndroidManifest\.xml/],
      [
        'a text manifest',
        fixture('text-manifest.apk'),
        /has a corrupt AndroidManifest\.xml: it is not Android binary XML/,
      ],
      [
        'a manifest cut in half',
        fixture('cut-manifest.apk'),
        /has a corrupt AndroidManifest\.xml: the chunk at byte 8/,
      ],
      // The library alone never returns on this one.
      [
        'a chunk of size 0',
        fixture('zero-chunk-manifest.apk'),
        /has a corrupt AndroidManifest\.xml: .* claims 0 bytes/,
      ],
      [
        'a version name kept as a resource',
        fixture('reference-version.apk'),
        /versionName is a resource reference \(resourceId:0x7f0e0001\)/,
      ],
    ];
    for (const [kind, path, message] of cases) {
      await t.test(kind, { timeout: 10_000 }, async () => {
        await assert.rejects(readApkVersion(path), (error: unknown) => {
          assert.ok(error instanceof ApkVersionError, `${kind}: ${String(error)}`);
          assert.match(error.message, message);
          return true;
        });
      });
    }
  });

  test('the committed fixtures are what scripts/make-apk-fixtures.ts writes', () => {
    const fresh = join(workDir, 'fixtures');
    const names = writeFixtures(fresh);
    const apks = readdirSync(fixtures).filter((name) => name.endsWith('.apk'));
    assert.deepEqual(names.toSorted(), apks.toSorted());
    for (const name of names) assert.ok(readFileSync(join(fresh, name)).equals(readFileSync(fixture(name))), name);
  });
});
