import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  ApiFailure,
  WrongShapeError,
  readInstallPackages,
  readJsonOrText,
  type InstallPackageEntry,
} from '../src/index.js';

const android = { OS: 'android', DownloadURL: 'https://d.example.com/app.apk' };
const ios = { OS: 'ios', DownloadURL: 'https://d.example.com/ios' };
const expected: InstallPackageEntry[] = [
  { os: 'android', downloadUrl: 'https://d.example.com/app.apk' },
  { os: 'ios', downloadUrl: 'https://d.example.com/ios' },
];

describe('readInstallPackages shapes', () => {
  test('the canonical bare array', () => {
    assert.deepEqual(readInstallPackages([android, ios]), expected);
  });

  test('{list}', () => {
    assert.deepEqual(readInstallPackages({ list: [android, ios] }), expected);
  });

  test('{data: {list}}', () => {
    assert.deepEqual(readInstallPackages({ code: 0, data: { list: [android, ios] } }), expected);
  });

  test('{data: [...]}', () => {
    assert.deepEqual(readInstallPackages({ code: 0, data: [android, ios] }), expected);
  });

  test('one comma-space string of JSON objects', () => {
    const text = `${JSON.stringify(android)}, ${JSON.stringify(ios)}`;
    assert.deepEqual(readInstallPackages(text), expected);
    assert.deepEqual(readInstallPackages({ code: 0, data: text }), expected);
  });

  test('both string forms as a body: JSON-quoted, and the bare text that is no JSON as a whole', () => {
    const text = `${JSON.stringify(android)}, ${JSON.stringify(ios)}`;
    assert.throws(() => JSON.parse(text), SyntaxError);
    assert.deepEqual(readInstallPackages(readJsonOrText(text)), expected);
    assert.deepEqual(readInstallPackages(readJsonOrText(JSON.stringify(text))), expected);
    assert.deepEqual(readInstallPackages(readJsonOrText(JSON.stringify([android, ios]))), expected);
    assert.deepEqual(readInstallPackages(readJsonOrText(` ${text}\n`)), expected);
  });

  test('the string form where a value contains ", "', () => {
    const text = '{"OS":"ios","DownloadURL":"x","version":"1.2, beta"}, {"OS":"mac","DownloadURL":"y"}';
    assert.deepEqual(readInstallPackages(text), [
      { os: 'ios', downloadUrl: 'x', version: '1.2, beta' },
      { os: 'mac', downloadUrl: 'y' },
    ]);
  });

  test('the string form with a malformed entry keeps the others, even with "}, {" inside a value', () => {
    const text = '{"OS":"ios","DownloadURL":"x","version":"a}, {b"}, {not json}, {"OS":"mac","DownloadURL":"y"}';
    assert.deepEqual(readInstallPackages(text), [
      { os: 'ios', downloadUrl: 'x', version: 'a}, {b' },
      { os: 'mac', downloadUrl: 'y' },
    ]);
  });

  test('a string holding a JSON array, and an empty string', () => {
    assert.deepEqual(readInstallPackages(JSON.stringify([android, ios])), expected);
    assert.deepEqual(readInstallPackages(''), []);
  });

  test('a failed envelope throws ApiFailure', () => {
    assert.throws(() => readInstallPackages({ success: false, data: [android] }), ApiFailure);
  });

  for (const [name, body] of [
    ['{}', {}],
    ['"text"', 'text'],
    ['{list: "x"}', { list: 'x' }],
    ['null', null],
    ['a number', 3],
  ] as const) {
    test(`the wrong shape ${name} throws WrongShapeError`, () => {
      assert.throws(() => readInstallPackages(body), WrongShapeError);
    });
  }
});

describe('readInstallPackages fields', () => {
  test('lower-case os and download_url', () => {
    assert.deepEqual(readInstallPackages([{ os: 'Android', download_url: ' https://d.example.com/app.apk ' }]), [
      expected[0],
    ]);
  });

  test('camelCase downloadUrl and an upper-case OS value', () => {
    assert.deepEqual(readInstallPackages([{ OS: 'IOS', downloadUrl: 'https://d.example.com/ios' }]), [expected[1]]);
  });

  test('extra fields in snake_case', () => {
    const sha = 'A'.repeat(64);
    const item = {
      ...android,
      version: '2.3.1',
      size: 12345678,
      sha256: sha,
      released_at: '2024-05-01 10:00:00',
      release_notes_url: 'https://d.example.com/notes',
    };
    assert.deepEqual(readInstallPackages([item]), [
      {
        ...expected[0],
        version: '2.3.1',
        size: 12345678,
        sha256: 'a'.repeat(64),
        releasedAt: '2024-05-01 10:00:00',
        releaseNotesUrl: 'https://d.example.com/notes',
      },
    ]);
  });

  test('extra fields in camelCase, size as a numeric string, release time in unix seconds', () => {
    const item = { ...ios, size: '2048', releasedAt: 1714528800, releaseNotesUrl: 'n' };
    assert.deepEqual(readInstallPackages([item]), [
      { ...expected[1], size: 2048, releasedAt: '2024-05-01 10:00:00', releaseNotesUrl: 'n' },
    ]);
  });

  test('malformed extra fields are left out', () => {
    const item = { ...ios, version: '', size: '12 MB', sha256: 5, released_at: 'soon', release_notes_url: '' };
    assert.deepEqual(readInstallPackages([item]), [expected[1]]);
    assert.deepEqual(readInstallPackages([{ ...ios, size: -1 }]), [expected[1]]);
  });

  test("the served release's notes and minimum OS, in snake_case and camelCase", () => {
    const notes = ' 修复了一些问题\n启动更快 ';
    assert.deepEqual(readInstallPackages([{ ...android, notes, min_os: ' Android 8.0 ' }]), [
      { ...expected[0], notes: '修复了一些问题\n启动更快', minOs: 'Android 8.0' },
    ]);
    assert.deepEqual(readInstallPackages([{ ...ios, update_desc: 'a', minOs: 'iOS 13' }]), [
      { ...expected[1], notes: 'a', minOs: 'iOS 13' },
    ]);
  });

  test('blank or non-text notes and minimum OS are left out', () => {
    assert.deepEqual(readInstallPackages([{ ...ios, notes: ' \n ', min_os: '' }]), [expected[1]]);
    assert.deepEqual(readInstallPackages([{ ...ios, notes: 5, min_os: { v: 8 } }]), [expected[1]]);
  });

  test('entries without os or url, or not objects, are skipped', () => {
    const list = [
      { OS: 'ios' },
      { DownloadURL: 'x' },
      { OS: '', DownloadURL: 'x' },
      { OS: 3, DownloadURL: 'x' },
      'x',
      null,
      android,
    ];
    assert.deepEqual(readInstallPackages(list), [expected[0]]);
  });
});

describe("the language of an entry's notes", () => {
  test('is read when the server says it of notes there are, and left out otherwise', () => {
    const notes = { ...android, notes: 'Faster', notes_lang: 'en' };
    assert.deepEqual(readInstallPackages([notes]), [
      { os: 'android', downloadUrl: android.DownloadURL, notes: 'Faster', notesLanguage: 'en' },
    ]);
    assert.deepEqual(readInstallPackages([{ ...android, notes_lang: 'en' }]), [expected[0]], 'no notes, no language');
    assert.deepEqual(readInstallPackages([{ ...android, notes: '更快' }]), [
      { os: 'android', downloadUrl: android.DownloadURL, notes: '更快' },
    ]);
  });
});
