/**
 * Tauri signatures checked at publish (docs/releases.md#tauri-signatures), with real keys and
 * signatures made by Debian's minisign: a signature the updater would refuse is refused before
 * any installed app is told to update, with the code and field the console says in Chinese.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { asTauriSig, makeSigningKey, type SigningKey } from '../../testing/minisign.js';
import { bearer, hostFile, startTestApp, type TestApp } from './helpers.js';

let key: SigningKey;
let other: SigningKey;
let t: TestApp;
const name = 'xingliao_5.2.1_x64-setup.exe';
const exe = Buffer.concat([Buffer.from('MZ', 'latin1'), Buffer.alloc(300_000, 5), Buffer.from('星聊 5.2.1')]);
let fileKey: string;

before(async () => {
  [key, other] = [makeSigningKey(), makeSigningKey()];
  t = await startTestApp({ env: { TAURI_PUBLIC_KEY: key.tauriPubkey } });
  fileKey = await hostFile(t.app, name, exe);
});
after(async () => {
  await t?.close();
  key?.remove();
  other?.remove();
});

const comment = (fields: string) => `timestamp:1764400000\t${fields}`;

async function publish(signature: string, extra: object = {}) {
  return t.app.inject({
    method: 'POST',
    url: '/v1/admin/releases',
    headers: bearer,
    payload: { os: 'windows', file_key: fileKey, version: '5.2.1', signature, ...extra },
  });
}

async function refused(signature: string, code: string, extra: object = {}) {
  const res = await publish(signature, extra);
  assert.equal(res.statusCode, 400, res.body);
  const body = res.json<{ msg: string; code: string; field: string; found?: string }>();
  assert.equal(body.code, code, body.msg);
  assert.equal(body.field, 'signature');
  assert.match(body.msg, /^body\/signature: /);
  return body;
}

describe('with TAURI_PUBLIC_KEY set', () => {
  test('a signature of the file, prehashed as tauri signer makes it, is published and served', async () => {
    const sig = asTauriSig(key.sign(exe, comment(`file:${name}`)));
    const res = await publish(sig);
    assert.equal(res.statusCode, 201, res.body);
    const tauri = await t.app.inject('/v1/common/updater/windows/5.0.0');
    assert.equal(tauri.json<{ signature: string }>().signature, sig);
  });

  test("minisign's legacy signature (not prehashed) and the .minisig text as it is are taken too", async () => {
    const legacy = key.sign(exe, comment(`file:${name}`), { legacy: true });
    assert.equal((await publish(asTauriSig(legacy))).statusCode, 201);
    const res = await publish(legacy);
    assert.equal(res.statusCode, 201, res.body);
    assert.equal(res.json<{ signature: string }>().signature, asTauriSig(legacy), 'kept as the updater is sent it');
  });

  test('text that is no signature: bad_signature', async () => {
    for (const text of ['abc', asTauriSig('untrusted comment: x\nRWQ=\n'), Buffer.from('x').toString('base64')])
      await refused(text, 'bad_signature');
  });

  test('a signature of other bytes: signature_mismatch', async () => {
    const body = await refused(
      asTauriSig(key.sign(Buffer.from('other'), comment(`file:${name}`))),
      'signature_mismatch',
    );
    assert.match(body.msg, /does not verify against xingliao_5\.2\.1_x64-setup\.exe/);
  });

  test("another key's signature: signature_wrong_key, naming its key id", async () => {
    const body = await refused(asTauriSig(other.sign(exe, comment(`file:${name}`))), 'signature_wrong_key');
    assert.equal(body.found, other.keyId);
  });

  test('a trusted comment changed after signing: bad_signature', async () => {
    const signed = key.sign(exe, comment('file:xingliao_5.2.0_x64-setup.exe'));
    const changed = signed.replace('xingliao_5.2.0', 'xingliao_5.2.1');
    const body = await refused(asTauriSig(changed), 'bad_signature');
    assert.match(body.msg, /trusted comment was changed/);
  });

  test('a trusted comment naming another file or version: which, and what it names', async () => {
    const otherFile = await refused(
      asTauriSig(key.sign(exe, comment('file:xingliao_5.2.0_x64-setup.exe'))),
      'signature_other_file',
    );
    assert.equal(otherFile.found, 'xingliao_5.2.0_x64-setup.exe');
    const otherVersion = await refused(asTauriSig(key.sign(exe, comment('version:5.2.0'))), 'signature_other_version');
    assert.equal(otherVersion.found, '5.2.0');
    assert.equal((await publish(asTauriSig(key.sign(exe, comment('version:v5.2.1'))))).statusCode, 201);
  });

  test('an outside address: its bytes are never fetched, so only the key and the comment are checked', async () => {
    const url = 'https://dl.example.com/win/xingliao_5.2.1_x64-setup.exe';
    const ofOtherBytes = asTauriSig(key.sign(Buffer.from('not fetched'), comment(`file:${name}`)));
    const res = await publish(ofOtherBytes, { file_key: undefined, url });
    assert.equal(res.statusCode, 201, res.body);
    await refused(asTauriSig(other.sign(exe, comment(`file:${name}`))), 'signature_wrong_key', {
      file_key: undefined,
      url,
    });
    await refused(asTauriSig(key.sign(exe, comment('file:setup.exe'))), 'signature_other_file', {
      file_key: undefined,
      url,
    });
  });

  test('nothing refused is published: the current release is the last accepted one', async () => {
    const before = (await t.app.inject('/v1/common/updater/windows/5.0.0')).body;
    await refused('abc', 'bad_signature');
    assert.equal((await t.app.inject('/v1/common/updater/windows/5.0.0')).body, before);
  });
});

describe('without TAURI_PUBLIC_KEY', () => {
  test('the form and the trusted comment are still checked; the bytes cannot be', async () => {
    const plain = await startTestApp();
    try {
      const file = await hostFile(plain.app, name, exe);
      const send = (signature: string) =>
        plain.app.inject({
          method: 'POST',
          url: '/v1/admin/releases',
          headers: bearer,
          payload: { os: 'windows', file_key: file, version: '5.2.1', signature },
        });
      assert.equal((await send('abc')).json<{ code: string }>().code, 'bad_signature');
      const versioned = await send(asTauriSig(other.sign(exe, comment('version:5.2.0'))));
      assert.equal(versioned.json<{ code: string }>().code, 'signature_other_version');
      assert.equal((await send(asTauriSig(other.sign(Buffer.from('x'), comment(`file:${name}`))))).statusCode, 201);
    } finally {
      await plain.close();
    }
  });
});

test('a TAURI_PUBLIC_KEY that is no minisign key stops the start, saying so', async () => {
  await assert.rejects(
    startTestApp({ env: { TAURI_PUBLIC_KEY: 'not a key' } }),
    /TAURI_PUBLIC_KEY must be a minisign public key/,
  );
});
