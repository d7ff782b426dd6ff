import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { InstallPackageEntry } from '@chat-site/contract';
import { siteConfig } from '../src/config/site-config';
import { cards, formatSize, packageFacts, ranked, type DownloadLinks } from '../src/features/downloads/cards';

const sha = 'a'.repeat(64);
const entry = (os: InstallPackageEntry['os'], fields: Partial<InstallPackageEntry> = {}): InstallPackageEntry => ({
  os,
  downloadUrl: `https://cdn.example.test/${os}.bin`,
  version: '5.0.1',
  size: 2048,
  sha256: sha,
  releasedAt: '2026-05-01 10:00:00',
  releaseNotesUrl: 'https://example.test/notes',
  ...fields,
});
const links = (packages: InstallPackageEntry[], edgeUrl?: string): DownloadLinks => ({
  loading: false,
  packages,
  edgeUrl,
});

describe('cards on the primary domain', () => {
  test('offer the fixed APK only', () => {
    const list = cards(true, links([entry('android'), entry('ios'), entry('windows')]));
    assert.deepEqual(
      list.map((card) => [card.platform, card.link]),
      [['android', { href: siteConfig.androidApkUrl, newTab: false }]],
    );
  });

  test('show the Android entry only when it describes the fixed APK', () => {
    const other = entry('android');
    assert.equal(cards(true, links([other]))[0]?.details, undefined);
    const fixed = entry('android', { downloadUrl: siteConfig.androidApkUrl });
    assert.equal(cards(true, links([fixed]))[0]?.details, fixed);
  });
});

describe('cards on other hosts', () => {
  test('offer the four platforms in order, each linking its own entry', () => {
    const packages = [entry('mac'), entry('windows'), entry('android')];
    const list = cards(false, links(packages));
    assert.deepEqual(
      list.map((card) => card.platform),
      ['android', 'ios', 'windows', 'mac'],
    );
    assert.deepEqual(list[0]?.link, { href: 'https://cdn.example.test/android.bin', newTab: false });
    assert.deepEqual(list[3]?.link, { href: 'https://cdn.example.test/mac.bin', newTab: false });
  });

  test("send Android to the edge service's URL in a new tab when it answered", () => {
    const list = cards(false, links([entry('android')], 'https://edge.example.test/x.apk'));
    assert.deepEqual(list[0]?.link, { href: 'https://edge.example.test/x.apk', newTab: true });
    assert.equal(list[0]?.details?.sha256, sha, 'the facts still describe the package entry');
  });

  test('leave a platform without an entry with no address and no facts', () => {
    const windows = cards(false, links([]))[2];
    assert.deepEqual(windows, { platform: 'windows', link: { href: undefined, newTab: false }, details: undefined });
  });

  test('send iOS to the App Store, without the size and hash the visitor cannot check there', () => {
    const ios = cards(false, links([entry('ios', { notes: '修复若干问题', minOs: 'iOS 13' })]))[1];
    assert.deepEqual(ios?.link, { href: `https://apps.apple.com/app/id${siteConfig.iosAppStoreId}`, newTab: true });
    assert.deepEqual(ios?.details, {
      version: '5.0.1',
      releasedAt: '2026-05-01 10:00:00',
      releaseNotesUrl: 'https://example.test/notes',
      notes: '修复若干问题',
      minOs: 'iOS 13',
    });
  });
});

describe('ranked', () => {
  const list = cards(false, links([]));

  test("puts the visitor's platform first as recommended, the others after in their order", () => {
    const order = ranked(list, 'windows').map((card) => [card.platform, card.standing]);
    assert.deepEqual(order, [
      ['windows', 'recommended'],
      ['android', 'other'],
      ['ios', 'other'],
      ['mac', 'other'],
    ]);
  });

  test('leaves the list as it is when the platform is unknown', () => {
    const same = ranked(list, undefined);
    assert.equal(same, list);
    assert.ok(same.every((card) => card.standing === undefined));
  });
});

describe('formatSize', () => {
  for (const [bytes, shown] of [
    [0, '0 B'],
    [1023, '1023 B'],
    [1024, '1.0 KB'],
    [1536, '1.5 KB'],
    [5 * 1024 ** 2 + 300 * 1024, '5.3 MB'],
    [3 * 1024 ** 3, '3.0 GB'],
    [2 * 1024 ** 4, '2048.0 GB'],
  ] as const) {
    test(`${bytes} bytes read ${shown}`, () => assert.equal(formatSize(bytes), shown));
  }
});

describe('packageFacts', () => {
  test('shows every fact that is what it claims to be', () => {
    assert.deepEqual(packageFacts(entry('android')), {
      version: '5.0.1',
      size: '2.0 KB',
      released: '2026-05-01',
      sha256: sha,
      notesUrl: 'https://example.test/notes',
    });
  });

  test('drops a hash that is not 64 lower-case hex digits and notes that are not http(s)', () => {
    for (const sha256 of ['A'.repeat(64), 'a'.repeat(63), `${'a'.repeat(63)}g`]) {
      assert.equal(packageFacts(entry('android', { sha256 })).sha256, undefined, sha256);
    }
    for (const releaseNotesUrl of ['javascript:alert(1)', '/notes', 'ftp://example.test/n']) {
      assert.equal(packageFacts(entry('android', { releaseNotesUrl })).notesUrl, undefined, releaseNotesUrl);
    }
  });

  test("carries the release's notes and minimum system as they are", () => {
    const facts = packageFacts({ notes: '新增夜间模式\n修复若干问题', minOs: 'Android 8.0' });
    assert.deepEqual(facts, { notes: '新增夜间模式\n修复若干问题', minOs: 'Android 8.0' });
  });

  test('has no key for a missing fact or a date that holds no date', () => {
    assert.deepEqual(packageFacts({ releasedAt: 'soon' }), {});
    assert.deepEqual(packageFacts({}), {});
  });
});
