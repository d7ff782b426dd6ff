/**
 * A release's update payloads (docs/releases.md#update-payloads): published beside the download,
 * refused before anything is stored when they could not be installed, listed in the console's
 * cards, and answered to the Tauri updater for its target and architecture with real minisign
 * signatures, which Debian's minisign verifies against the bytes the answer points at, as the
 * Tauri updater (v1 and v2 alike) does after downloading. On SQLite, and on PostgreSQL with
 * TEST_POSTGRES_URL.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ReleaseCards } from '@chat-site/contract/admin';
import { asTauriSig, makeSigningKey, minisignVerifies, type SigningKey } from '../../testing/minisign.js';
import { checked } from './checked.js';
import { bearer, hostFile, startTestApp, type TestApp } from './helpers.js';

let key: SigningKey;
let other: SigningKey;
let t: TestApp;
before(async () => {
  [key, other] = [makeSigningKey(), makeSigningKey()];
  t = await startTestApp({ env: { TAURI_PUBLIC_KEY: key.tauriPubkey } });
});
after(async () => {
  await t?.close();
  key?.remove();
  other?.remove();
});

const gzip = (text: string) =>
  Buffer.concat([Buffer.from([0x1f, 0x8b, 8, 0]), Buffer.alloc(2000, 7), Buffer.from(text)]);
const zip = (text: string) =>
  Buffer.concat([Buffer.from('PK\x03\x04', 'latin1'), Buffer.alloc(2000, 3), Buffer.from(text)]);
const exe = (text: string) => Buffer.concat([Buffer.from('MZ', 'latin1'), Buffer.alloc(2000, 1), Buffer.from(text)]);
const dmg = (text: string) => {
  const data = Buffer.alloc(4096, 9);
  Buffer.from(text).copy(data);
  Buffer.from('koly').copy(data, data.byteLength - 512);
  return data;
};

/** A tauri signer signature of `bytes`, named as the Tauri bundler names it. */
const sign = (bytes: Buffer, name: string, by = key) =>
  asTauriSig(by.sign(bytes, `timestamp:1764400000\tfile:${name}`));

const publish = (payload: object) =>
  t.app.inject({ method: 'POST', url: '/v1/admin/releases', headers: bearer, payload });

const tauri = (os: string, version: string, arch?: string) =>
  t.app.inject(`/v1/common/updater/${os}/${version}${arch === undefined ? '' : `?arch=${arch}`}`);

/** The bytes an answer's address serves (hosted here, so asked of this server). */
async function fetched(url: string): Promise<Buffer> {
  const res = await t.app.inject(new URL(url).pathname);
  assert.equal(res.statusCode, 200, url);
  return res.rawPayload;
}

interface Hosted {
  name: string;
  bytes: Buffer;
  key: string;
}
async function host(name: string, bytes: Buffer): Promise<Hosted> {
  return { name, bytes, key: await hostFile(t.app, name, bytes) };
}

describe('a macOS release: a .dmg for people, a .zip for electron, an .app.tar.gz per architecture for Tauri', () => {
  let intel: Hosted;
  let arm: Hosted;
  let electron: Hosted;
  before(async () => {
    const download = await host('Xingliao-5.1.0.dmg', dmg('5.1.0'));
    electron = await host('Xingliao-5.1.0-mac.zip', zip('5.1.0'));
    intel = await host('Xingliao_x64.app.tar.gz', gzip('intel 5.1.0'));
    arm = await host('Xingliao_aarch64.app.tar.gz', gzip('arm 5.1.0'));
    const res = await publish({
      os: 'mac',
      file_key: download.key,
      version: '5.1.0',
      payloads: [
        { role: 'electron', file_key: electron.key },
        { role: 'tauri', arch: 'x86_64', file_key: intel.key, signature: sign(intel.bytes, intel.name) },
        { role: 'tauri', arch: 'aarch64', file_key: arm.key, signature: sign(arm.bytes, arm.name) },
      ],
    });
    assert.equal(res.statusCode, 201, res.body);
  });

  test('the console lists the payloads with their own size and hashes', async () => {
    const cards = checked(ReleaseCards, await t.app.inject({ url: '/v1/admin/releases', headers: bearer }));
    const release = cards.platforms.find((card) => card.os === 'mac')?.history[0];
    assert.deepEqual(
      release?.payloads.map(({ role, arch, file_key, size }) => ({ role, arch, file_key, size })),
      [
        { role: 'electron', arch: null, file_key: electron.key, size: electron.bytes.byteLength },
        { role: 'tauri', arch: 'x86_64', file_key: intel.key, size: intel.bytes.byteLength },
        { role: 'tauri', arch: 'aarch64', file_key: arm.key, size: arm.bytes.byteLength },
      ],
    );
    assert.match(release?.payloads[1]?.sha512 ?? '', /^[A-Za-z0-9+/]{86}==$/);
    const audit = await t.db.kysely
      .selectFrom('audit_log')
      .select('after')
      .where('action', '=', 'release.publish')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    assert.match(
      audit.after ?? '',
      new RegExp(`"role":"tauri","arch":"aarch64","download_url":"file/preview/${arm.key}"`),
    );
  });

  test('Tauri gets the payload of its architecture, whose signature verifies against the bytes it points at', async () => {
    for (const [arch, payload] of [
      ['aarch64', arm],
      ['x86_64', intel],
    ] as const) {
      const res = await tauri('darwin', '5.0.0', arch);
      assert.equal(res.statusCode, 200, res.body);
      const answer = res.json<{ url: string; signature: string; version: string }>();
      assert.equal(new URL(answer.url).pathname, `/v1/file/preview/${payload.key}`);
      assert.ok(minisignVerifies(key.publicKey, await fetched(answer.url), answer.signature), arch);
      assert.equal(answer.version, '5.1.0');
    }
  });

  test('an architecture without a payload, or none asked among several: 204, no update', async () => {
    assert.equal((await tauri('darwin', '5.0.0', 'i686')).statusCode, 204);
    assert.equal((await tauri('darwin', '5.0.0', 'armv7')).statusCode, 204);
    assert.equal((await tauri('mac', '5.0.0')).statusCode, 204);
    assert.equal((await tauri('darwin', '5.1.0', 'aarch64')).statusCode, 204, 'current');
  });

  test('a payload of the release served now cannot be deleted', async () => {
    const res = await t.app.inject({ method: 'DELETE', url: `/v1/admin/files/${arm.key}`, headers: bearer });
    assert.equal(res.statusCode, 409, res.body);
    assert.equal(res.json<{ code: string }>().code, 'in_use');
  });

  test("the chat apps' check, the package list and /dl/mac keep the .dmg", async () => {
    const app = (await t.app.inject('/v1/common/appversion/mac/5.0.0')).json<{ download_url: string }>();
    assert.match(app.download_url, /-Xingliao-5\.1\.0\.dmg$/);
    const dl = await t.app.inject('/dl/mac');
    assert.match(dl.headers.location ?? '', /-Xingliao-5\.1\.0\.dmg$/);
    const list = await t.app.inject('/v1/common/getInstallPackageAddrs');
    assert.match(list.body, /-Xingliao-5\.1\.0\.dmg"/);
  });
});

describe('Windows: a payload for every architecture and one for arm', () => {
  test('an architecture with its own payload gets it; any other, or none asked, the universal one', async () => {
    const download = await host(
      'Xingliao-5.2.0.msi',
      Buffer.concat([Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]), Buffer.alloc(100)]),
    );
    const universal = await host('Xingliao_5.2.0_x64-setup.nsis.zip', zip('nsis 5.2.0'));
    const arm = await host('Xingliao_5.2.0_arm64-setup.exe', exe('arm 5.2.0'));
    const res = await publish({
      os: 'windows',
      file_key: download.key,
      version: '5.2.0',
      payloads: [
        { role: 'tauri', file_key: universal.key, signature: sign(universal.bytes, universal.name) },
        { role: 'tauri', arch: 'aarch64', file_key: arm.key, signature: sign(arm.bytes, arm.name) },
      ],
    });
    assert.equal(res.statusCode, 201, res.body);
    for (const [arch, payload] of [
      ['aarch64', arm],
      ['x86_64', universal],
      ['i686', universal],
      [undefined, universal],
    ] as const) {
      const answer = (await tauri('windows', '5.1.0', arch)).json<{ url: string; signature: string }>();
      assert.equal(new URL(answer.url).pathname, `/v1/file/preview/${payload.key}`, arch);
      assert.ok(minisignVerifies(key.publicKey, await fetched(answer.url), answer.signature), arch);
    }
  });
});

test("electron's blockmap is found where electron-updater looks: next to its payload, + .blockmap", async () => {
  const download = await host('Xingliao-5.3.0.dmg', dmg('5.3.0'));
  const electron = await host('Xingliao-5.3.0-mac.zip', zip('5.3.0'));
  const blockmap = await host('Xingliao-5.3.0-mac.zip.blockmap', gzip('{"version":"2","files":[]}'));
  const payloads = [
    { role: 'electron', file_key: electron.key },
    { role: 'electron_blockmap', file_key: blockmap.key },
  ];
  assert.equal((await publish({ os: 'mac', file_key: download.key, version: '5.3.0', payloads })).statusCode, 201);
  const yml = await t.app.inject('/v1/common/pcupdater/latest-mac.yml');
  const url = /url: "([^"]+)"/.exec(yml.body)?.[1] ?? '';
  assert.equal(new URL(url).pathname, `/v1/file/preview/${electron.key}`);
  const asked = await t.app.inject(`${new URL(url).pathname}.blockmap`);
  assert.equal(asked.statusCode, 302);
  const location = new URL(asked.headers.location ?? '', url);
  assert.equal(location.pathname, `/v1/file/preview/${blockmap.key}`);
  assert.deepEqual(await fetched(location.href), blockmap.bytes);
  assert.equal((await t.app.inject(`/v1/file/preview/${download.key}.blockmap`)).statusCode, 404);
});

test('rolling back to a release whose payload was deleted since: 409 file_deleted', async () => {
  const payload = await host('Xingliao-4.0.0-setup.exe', exe('4.0.0'));
  const first = await publish({
    os: 'windows',
    url: 'https://dl.example.com/Xingliao-4.0.0.msi',
    version: '4.0.0',
    payloads: [{ role: 'electron', file_key: payload.key }],
  });
  const id = first.json<{ id: number }>().id;
  await publish({ os: 'windows', url: 'https://dl.example.com/Xingliao-4.1.0.msi', version: '4.1.0' });
  const removed = await t.app.inject({ method: 'DELETE', url: `/v1/admin/files/${payload.key}`, headers: bearer });
  assert.equal(removed.statusCode, 204, removed.body);
  const res = await t.app.inject({ method: 'POST', url: `/v1/admin/releases/${id}/rollback`, headers: bearer });
  assert.equal(res.statusCode, 409, res.body);
  assert.equal(res.json<{ code: string }>().code, 'file_deleted');
});

describe('refused before anything is stored', () => {
  let macZip: Hosted;
  let tarball: Hosted;
  let dmgFile: Hosted;
  const counts = async () => ({
    releases: (await t.db.kysely.selectFrom('releases').select('id').execute()).length,
    payloads: (await t.db.kysely.selectFrom('release_payloads').select('id').execute()).length,
  });
  before(async () => {
    macZip = await host('Xingliao-6.0.0-mac.zip', zip('6.0.0'));
    tarball = await host('Xingliao.app.tar.gz', gzip('6.0.0'));
    dmgFile = await host('Xingliao-6.0.0.dmg', dmg('6.0.0'));
  });

  async function refused(body: object, code: string, field: string, found?: string) {
    const before = await counts();
    const res = await publish({ version: '6.0.0', ...body });
    assert.equal(res.statusCode, 400, res.body);
    const answer = res.json<{ msg: string; code: string; field: string; found?: string }>();
    assert.equal(answer.code, code, answer.msg);
    assert.equal(answer.field, field, answer.msg);
    const pointer = field.replace(/\[(\d+)\]\./g, '/$1/');
    assert.ok(answer.msg.startsWith(`body/${pointer}: `), answer.msg);
    if (found !== undefined) assert.equal(answer.found, found);
    assert.deepEqual(await counts(), before, 'nothing stored');
  }

  test('a payload on a platform that has none: payload_wrong_platform', async () => {
    const apk = await host('app.apk', zip('apk'));
    await refused(
      { os: 'android', file_key: apk.key, payloads: [{ role: 'electron', file_key: macZip.key }] },
      'payload_wrong_platform',
      'payloads[0].role',
    );
    await refused(
      {
        os: 'ios',
        url: 'https://apps.example.com/x',
        payloads: [{ role: 'tauri', url: 'https://dl.example.com/a.app.tar.gz' }],
      },
      'payload_wrong_platform',
      'payloads[0].role',
    );
  });

  test('a file of the wrong kind for its role and platform: payload_wrong_kind, naming the file', async () => {
    const mac = (payload: object) => ({ os: 'mac', file_key: dmgFile.key, payloads: [payload] });
    const cases: [object, string, string?][] = [
      [mac({ role: 'electron', file_key: dmgFile.key }), 'file_key', dmgFile.name],
      [mac({ role: 'tauri', file_key: macZip.key }), 'file_key', macZip.name],
      [mac({ role: 'electron_blockmap', file_key: macZip.key }), 'file_key'],
      [
        { os: 'windows', url: 'https://dl.example.com/a.exe', payloads: [{ role: 'electron', file_key: macZip.key }] },
        'file_key',
      ],
      [mac({ role: 'tauri', url: 'https://dl.example.com/Xingliao.dmg' }), 'url', 'Xingliao.dmg'],
    ];
    for (const [body, field, found] of cases) {
      await refused(body, 'payload_wrong_kind', `payloads[0].${field}`, found);
    }
  });

  test('the same role and architecture twice: payload_repeated', async () => {
    await refused(
      {
        os: 'mac',
        file_key: dmgFile.key,
        payloads: [
          { role: 'electron', file_key: macZip.key },
          { role: 'electron', url: 'https://dl.example.com/other-mac.zip' },
        ],
      },
      'payload_repeated',
      'payloads[1].role',
    );
  });

  test('neither or both of file_key and url, an unknown hosted file, a signature on a non-Tauri payload', async () => {
    const mac = (payload: object) => ({ os: 'mac', file_key: dmgFile.key, payloads: [payload] });
    const cases: [object, string][] = [
      [{ role: 'electron' }, 'file_key'],
      [{ role: 'electron', file_key: macZip.key, url: 'https://dl.example.com/a.zip' }, 'file_key'],
      [{ role: 'electron', file_key: '0123456789abcdef-none.zip' }, 'file_key'],
      [{ role: 'electron', file_key: macZip.key, signature: sign(macZip.bytes, macZip.name) }, 'signature'],
    ];
    for (const [payload, field] of cases) await refused(mac(payload), 'invalid_field', `payloads[0].${field}`);
  });

  test("a Tauri payload's signature is checked against the payload's own bytes and name", async () => {
    const mac = (signature: string) => ({
      os: 'mac',
      file_key: dmgFile.key,
      payloads: [
        { role: 'electron', file_key: macZip.key },
        { role: 'tauri', file_key: tarball.key, signature },
      ],
    });
    const versioned = asTauriSig(key.sign(tarball.bytes, `timestamp:1\tfile:${tarball.name}\tversion:5.9.0`));
    const cases: [string, string, string?][] = [
      // The download's signature is not the payload's.
      [sign(dmgFile.bytes, tarball.name), 'signature_mismatch'],
      [sign(tarball.bytes, dmgFile.name), 'signature_other_file', dmgFile.name],
      [sign(tarball.bytes, tarball.name, other), 'signature_wrong_key', other.keyId],
      ['abc', 'bad_signature'],
      [versioned, 'signature_other_version', '5.9.0'],
    ];
    for (const [signature, code, found] of cases) await refused(mac(signature), code, 'payloads[1].signature', found);
    assert.equal((await publish({ version: '6.0.0', ...mac(sign(tarball.bytes, tarball.name)) })).statusCode, 201);
  });
});

describe('a staged roll-out', () => {
  test("installs outside the share are offered the previous release's payload", async () => {
    const old = await host('Xingliao_7.0.0.app.tar.gz', gzip('7.0.0'));
    const next = await host('Xingliao_7.1.0.app.tar.gz', gzip('7.1.0'));
    for (const [version, file, share] of [
      ['7.0.0', old, undefined],
      ['7.1.0', next, 50],
    ] as const) {
      const download = await host(`Xingliao-${version}.dmg`, dmg(version));
      const res = await publish({
        os: 'mac',
        file_key: download.key,
        version,
        rollout_percentage: share,
        payloads: [{ role: 'tauri', file_key: file.key, signature: sign(file.bytes, file.name) }],
      });
      assert.equal(res.statusCode, 201, res.body);
    }
    const seen = new Map<string, string>();
    for (let install = 0; install < 40 && seen.size < 2; install++) {
      const res = await t.app.inject({
        url: '/v1/common/updater/darwin/6.0.0',
        headers: { 'user-agent': `tauri/${install}` },
      });
      const answer = res.json<{ version: string; url: string }>();
      seen.set(answer.version, new URL(answer.url).pathname);
    }
    assert.deepEqual(Object.fromEntries(seen), {
      '7.0.0': `/v1/file/preview/${old.key}`,
      '7.1.0': `/v1/file/preview/${next.key}`,
    });
  });
});
