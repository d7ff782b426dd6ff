/**
 * Real minisign keys and signatures, made by Debian's `minisign`, in the format of the Tauri
 * updater's keys and .sig files: for the tests of the signatures checked at publish.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

function minisign(args: string[]): void {
  const result = spawnSync('minisign', args, { encoding: 'utf8', timeout: 20_000 });
  if (result.status !== 0) throw new Error(`minisign ${args.join(' ')}: ${result.stderr || result.error?.message}`);
}

export interface SigningKey {
  /** The .pub file's text. */
  publicKey: string;
  /**
   * The key id in all 16 hex digits, as the server names it. The C minisign writes it into the
   * .pub file's comment without leading zeros (one key in 16 starts with one).
   */
  keyId: string;
  /** As tauri.conf.json's pubkey holds it: base64 of the .pub file. */
  tauriPubkey: string;
  /** Signs `bytes` with this trusted comment: the .minisig file's text. `legacy`: not prehashed. */
  sign(bytes: Buffer, trustedComment: string, options?: { legacy?: boolean }): string;
  remove(): void;
}

/** A new key pair without a password, in a temporary folder until remove(). */
export function makeSigningKey(): SigningKey {
  const dir = mkdtempSync(join(tmpdir(), 'chat-site-minisign-'));
  const [pub, sec] = [join(dir, 'key.pub'), join(dir, 'key.sec')];
  minisign(['-G', '-W', '-p', pub, '-s', sec]);
  const publicKey = readFileSync(pub, 'utf8');
  const keyId = /minisign public key ([0-9A-F]{1,16})\n/.exec(publicKey)?.[1];
  if (!keyId) throw new Error(`no key id in minisign's public key file: ${publicKey}`);
  let count = 0;
  return {
    publicKey,
    keyId: keyId.padStart(16, '0'),
    tauriPubkey: Buffer.from(publicKey).toString('base64'),
    sign(bytes, trustedComment, { legacy = false } = {}) {
      const file = join(dir, `file-${count++}`);
      writeFileSync(file, bytes);
      minisign(['-S', ...(legacy ? ['-l'] : []), '-s', sec, '-m', file, '-t', trustedComment]);
      return readFileSync(`${file}.minisig`, 'utf8');
    },
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** A signature as a Tauri .sig file holds it, and as the release's `signature` is given. */
export const asTauriSig = (minisig: string) => Buffer.from(minisig).toString('base64');

/**
 * What the Tauri updater does with an answer's signature once it has downloaded the file: it
 * decodes the base64 and verifies the minisign signature (trusted comment included) against the
 * bytes with the app's public key. Checked here by Debian's `minisign -V`.
 */
export function minisignVerifies(publicKey: string, bytes: Buffer, tauriSig: string): boolean {
  const dir = mkdtempSync(join(tmpdir(), 'chat-site-minisign-'));
  try {
    const [file, pub] = [join(dir, 'file'), join(dir, 'key.pub')];
    writeFileSync(file, bytes);
    writeFileSync(pub, publicKey);
    writeFileSync(`${file}.minisig`, Buffer.from(tauriSig, 'base64'));
    return spawnSync('minisign', ['-V', '-q', '-p', pub, '-m', file], { timeout: 20_000 }).status === 0;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
