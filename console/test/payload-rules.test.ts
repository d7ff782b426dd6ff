// The release form's update payloads checked before anything is uploaded
// (docs/console.md#releases-settings-and-numbers): the file each role takes per platform, the same
// role and architecture twice, a Tauri payload's signature; and where the server's refusal goes.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  newPayload,
  payloadBody,
  payloadProblems,
  payloadRefusalPlace,
  storedName,
  type PayloadDraft,
} from '../src/features/releases/payload-rules';

const file = (name: string) => new File(['x'], name);
const row = (change: Partial<PayloadDraft>, key = 0): PayloadDraft => ({ ...newPayload(key, []), ...change });

describe('the file each role takes', () => {
  test('a Mac electron payload is a .zip; a .dmg is refused and named', () => {
    assert.deepEqual(payloadProblems('mac', [row({ role: 'electron', file: file('XingLiao-7.1.0-mac.zip') })]), [{}]);
    assert.deepEqual(payloadProblems('mac', [row({ role: 'electron', file: file('XingLiao-7.1.0.dmg') })]), [
      { file: '“XingLiao-7.1.0.dmg”不是 Mac 的 electron-updater 更新包：应为 .zip 文件' },
    ]);
  });

  test('Tauri on a Mac wants .app.tar.gz; on Windows the NSIS or MSI zip, or the installer', () => {
    const signed = { role: 'tauri', signature: 'sig' } as const;
    assert.deepEqual(payloadProblems('mac', [row({ ...signed, file: file('XingLiao.app.tar.gz') })]), [{}]);
    assert.ok(payloadProblems('mac', [row({ ...signed, file: file('XingLiao.tar.gz') })])[0]?.file);
    for (const name of ['a.nsis.zip', 'a.msi.zip', 'a-setup.exe', 'a.MSI']) {
      assert.deepEqual(payloadProblems('windows', [row({ ...signed, file: file(name) })]), [{}], name);
    }
    assert.ok(payloadProblems('windows', [row({ ...signed, file: file('a.zip') })])[0]?.file);
  });

  test('an outside address is judged by its last segment', () => {
    const at = (url: string) => payloadProblems('windows', [row({ role: 'electron_blockmap', source: 'url', url })])[0];
    assert.deepEqual(at('https://dl.example.com/XingLiao%20Setup.exe.blockmap'), {});
    assert.equal(
      at('https://dl.example.com/XingLiao.exe')?.url,
      '“XingLiao.exe”不是 Windows 的 electron-updater 差分文件 (.blockmap)：应为 .blockmap 文件',
    );
    assert.equal(at('ftp://dl.example.com/a.blockmap')?.url, '请填写以 https:// 或 http:// 开头的完整地址');
  });
});

describe('rows together', () => {
  test('the same role and architecture twice is refused on the later row; another architecture is not', () => {
    const rows = [
      row({ role: 'electron', file: file('a.zip') }),
      row({ role: 'electron', arch: 'aarch64', file: file('b.zip') }),
      row({ role: 'electron', file: file('c.zip') }),
    ];
    const found = payloadProblems('mac', rows);
    assert.deepEqual(found.slice(0, 2), [{}, {}]);
    assert.equal(found[2]?.role, '前面已有一个 electron-updater 更新包（全部架构）');
  });

  test('a Tauri payload needs its signature; a file is needed', () => {
    const [tauri, empty] = payloadProblems('mac', [
      row({ role: 'tauri', file: file('a.app.tar.gz') }),
      row({ role: 'electron_blockmap' }),
    ]);
    assert.ok(tauri?.signature);
    assert.equal(empty?.file, '请选择更新包文件');
  });

  test('a new row takes the first role no row has yet', () => {
    const first = newPayload(1, []);
    assert.equal(first.role, 'electron');
    assert.equal(newPayload(2, [first]).role, 'electron_blockmap');
  });

  test('what is sent: the architecture only when one is chosen, the signature only for Tauri', () => {
    assert.deepEqual(payloadBody(row({ role: 'electron', signature: 'left over' })), { role: 'electron' });
    assert.deepEqual(
      payloadBody(
        row({ role: 'tauri', arch: 'x86_64', source: 'url', url: ' https://a/b.app.tar.gz ', signature: ' s ' }),
      ),
      { role: 'tauri', arch: 'x86_64', url: 'https://a/b.app.tar.gz', signature: 's' },
    );
  });
});

describe('what the server says and holds', () => {
  test('a refusal of payloads[N] (or payloads/N/) goes under row N: the file or address shown, or the signature', () => {
    const rows = [row({ role: 'electron' }), row({ role: 'tauri', source: 'url' })];
    assert.deepEqual(payloadRefusalPlace('payloads[1].signature', rows), { index: 1, field: 'signature' });
    assert.deepEqual(payloadRefusalPlace('payloads[0].file_key', rows), { index: 0, field: 'file' });
    assert.deepEqual(payloadRefusalPlace('payloads/1/signature', rows), { index: 1, field: 'signature' });
    assert.deepEqual(payloadRefusalPlace('payloads/1/file_key', rows), { index: 1, field: 'url' });
    assert.deepEqual(payloadRefusalPlace('payloads/0/url', rows), { index: 0, field: 'file' });
    assert.deepEqual(payloadRefusalPlace('payloads/0/role', rows), { index: 0, field: 'role' });
    assert.equal(payloadRefusalPlace('payloads/2/role', rows), undefined);
    assert.equal(payloadRefusalPlace('signature', rows), undefined);
  });

  test('a stored payload is named by its file, not its hash', () => {
    assert.equal(
      storedName({ file_key: '0123456789abcdef-XingLiao-7.1.0-mac.zip', download_url: 'file/preview/x' }),
      'XingLiao-7.1.0-mac.zip',
    );
    assert.equal(
      storedName({ file_key: null, download_url: 'https://a/b/XingLiao%20Setup.exe?x=1' }),
      'XingLiao Setup.exe',
    );
  });
});
