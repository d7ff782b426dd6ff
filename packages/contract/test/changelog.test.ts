import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ApiFailure, WrongShapeError, readChangelog, type ChangelogRelease } from '../src/index.js';

const wire = {
  app_version: '2.0.0',
  os: 'android',
  is_force: 1,
  update_desc: '新功能\n- 更快',
  download_url: 'https://d.example.com/app.apk',
  created_at: '2025-06-01 12:00:00',
  size: 3145728,
};
const expected: ChangelogRelease = {
  os: 'android',
  version: '2.0.0',
  force: true,
  notes: '新功能\n- 更快',
  downloadUrl: 'https://d.example.com/app.apk',
  releasedAt: '2025-06-01 12:00:00',
  size: 3145728,
};

describe('readChangelog', () => {
  test('the canonical bare array, in server order', () => {
    const older = { ...wire, app_version: '1.0', is_force: 0, size: null };
    const withoutSize: ChangelogRelease = { ...expected, version: '1.0', force: false };
    delete withoutSize.size;
    assert.deepEqual(readChangelog([wire, older]), [expected, withoutSize]);
  });

  test('wrapped in {list} or an envelope', () => {
    assert.deepEqual(readChangelog({ list: [wire] }), [expected]);
    assert.deepEqual(readChangelog({ code: 0, data: [wire] }), [expected]);
    assert.deepEqual(readChangelog({ list: null }), []);
  });

  test('other spellings and types: camelCase, "1", numeric versions, sizes as text, epoch times', () => {
    const other = {
      OS: 'iOS',
      appVersion: 3,
      isForce: '1',
      notes: 'n',
      downloadUrl: ' https://d.example.com/x ',
      createdAt: '2025-06-01T04:00:00Z',
      size: '12',
    };
    assert.deepEqual(readChangelog([other], 'Asia/Shanghai'), [
      {
        os: 'ios',
        version: '3',
        force: true,
        notes: 'n',
        downloadUrl: 'https://d.example.com/x',
        releasedAt: '2025-06-01 12:00:00',
        size: 12,
      },
    ]);
  });

  test('entries without a platform or a version are dropped; missing fields read as empty', () => {
    assert.deepEqual(readChangelog([{ os: 'mac' }, { app_version: '1' }, 'x', null, { os: 'mac', app_version: '1' }]), [
      { os: 'mac', version: '1', force: false, notes: '', downloadUrl: '', releasedAt: '' },
    ]);
  });

  test('a failed envelope throws ApiFailure; no list at all is a WrongShapeError', () => {
    assert.throws(() => readChangelog({ success: false, data: [wire] }), ApiFailure);
    assert.throws(() => readChangelog({ foo: 1 }), WrongShapeError);
    assert.throws(() => readChangelog('nope'), WrongShapeError);
  });
});

describe('the language of the notes', () => {
  test('is read when the server says it, and left out when it does not', () => {
    assert.deepEqual(readChangelog([{ ...wire, lang: 'zh-TW' }]), [{ ...expected, language: 'zh-TW' }]);
    assert.deepEqual(readChangelog([wire]), [expected]);
    assert.deepEqual(readChangelog([{ ...wire, lang: 'fr' }]), [expected], 'a language the site does not speak');
  });
});
