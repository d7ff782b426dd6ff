/**
 * The update checks' wire forms made from any release (docs/releases.md#update-checks): the
 * YAML electron-updater reads holds exactly the values given, whatever text an operator typed.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { parse } from 'yaml';
import { appVersionAnswer, latestYml, tauriAnswer } from '../src/updates/answers.js';
import type { Offer } from '../src/updates/current.js';

const offer = (
  over: Partial<Offer> & { sha512?: string; size?: number } = {},
): Offer & { sha512: string; size: number } => ({
  version: '5.10.0',
  notes: 'notes',
  force: false,
  minVersion: null,
  signature: null,
  releasedAt: '2026-11-20T02:00:00.000Z',
  url: 'https://dl.example.com/a.exe',
  sha512: 'AAAA',
  size: 10,
  payloads: [],
  ...over,
});

/** The YAML of a release without payloads: its download is electron-updater's one file. */
const ymlOf = (release: Offer & { sha512: string; size: number }) =>
  latestYml(release, [{ url: release.url, sha512: release.sha512, size: release.size }]);

/** Well-formed text: a lone surrogate cannot be carried by UTF-8 at all, and is replaced. */
const text = fc.string({ unit: 'grapheme', maxLength: 200 });

test('property: the YAML reads back to the values given, notes and URL of any text', () => {
  fc.assert(
    fc.property(text, text, text, fc.nat(), (notes, version, url, size) => {
      const info = parse(ymlOf(offer({ notes, version, url, size }))) as Record<string, unknown>;
      assert.equal(info.releaseNotes, notes);
      assert.equal(info.version, version);
      assert.equal(info.path, url);
      assert.deepEqual(info.files, [{ url, sha512: 'AAAA', size }]);
      assert.equal(info.releaseDate, '2026-11-20T02:00:00.000Z');
    }),
  );
});

test('characters YAML will not take bare are escaped, and come back', () => {
  const notes = 'a\u0085b\u2028c\u2029d\ufeffe\u007ff "q" \\ \n\t: # - [x] {y} &z *w !v |u >t %s @r `p';
  const yml = ymlOf(offer({ notes }));
  assert.doesNotMatch(yml, /[\u0085\u2028\u2029\ufeff\u007f]/);
  assert.equal((parse(yml) as Record<string, unknown>).releaseNotes, notes);
  const lone = (parse(ymlOf(offer({ notes: 'x\ud800y' }))) as Record<string, unknown>).releaseNotes;
  assert.equal(lone, 'x\ufffdy');
});

test('a release without notes leaves releaseNotes out', () => {
  const info = parse(ymlOf(offer({ notes: null }))) as Record<string, unknown>;
  assert.equal('releaseNotes' in info, false);
});

test('the app check and Tauri answer the same release; created_at in TIME_ZONE, pub_date in UTC', () => {
  const app = appVersionAnswer(offer(), 'windows', '5.9.3', 'Asia/Shanghai');
  assert.equal(app.created_at, '2026-11-20 10:00:00');
  assert.equal(tauriAnswer(offer(), '5.9.3')?.pub_date, '2026-11-20T02:00:00Z');
  assert.deepEqual(appVersionAnswer(offer(), 'windows', '5.10.0', 'Asia/Shanghai'), {});
  assert.equal(tauriAnswer(offer(), '5.10.0'), undefined);
});

test('a release whose own version cannot be read is offered to nobody', () => {
  assert.deepEqual(appVersionAnswer(offer({ version: 'nightly' }), 'android', 'junk', 'UTC'), {});
  assert.equal(tauriAnswer(offer({ version: 'nightly' }), '1.0.0'), undefined);
});
