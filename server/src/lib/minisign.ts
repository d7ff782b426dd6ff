/**
 * Minisign's public keys and signatures, the format of the Tauri updater's keys and `.sig`
 * files (docs/releases.md#tauri-signatures), read and checked with Ed25519 from node:crypto.
 * A signature is four lines: an untrusted comment; base64 of the algorithm ("Ed", or "ED" for
 * a BLAKE2b-512 prehash of the file), the 8-byte key id and the 64-byte signature; the trusted
 * comment; and base64 of the global signature, over the signature and the trusted comment.
 */
import { createHash, createPublicKey, verify, type KeyObject } from 'node:crypto';
import type { Readable } from 'node:stream';

export interface MinisignKey {
  /** The key id, as minisign prints it: 16 hex digits, most significant byte first. */
  id: string;
  key: KeyObject;
}

export interface MinisignSignature {
  keyId: string;
  prehashed: boolean;
  signature: Buffer;
  trustedComment: string;
  globalSignature: Buffer;
  /** The signature file's text, base64-encoded, as the Tauri updater is sent it. */
  base64: string;
}

// DER of an Ed25519 SubjectPublicKeyInfo, up to the raw 32-byte key.
const spkiPrefix = Buffer.from('302a300506032b6570032100', 'hex');
const untrusted = 'untrusted comment:';
const trusted = 'trusted comment: ';

function base64(text: string | undefined): Buffer | undefined {
  const clean = (text ?? '').trim();
  return /^[A-Za-z0-9+/]+={0,2}$/.test(clean) && clean.length % 4 === 0 ? Buffer.from(clean, 'base64') : undefined;
}

/** The file's text, given as it is or base64-encoded (as Tauri's pubkey setting and .sig files). */
function fileText(given: string): string {
  const text = given.trim();
  if (text.startsWith(untrusted)) return text;
  const decoded = base64(text)?.toString('utf8');
  return decoded?.startsWith(untrusted) === true ? decoded : text;
}

const keyIdOf = (bytes: Buffer) => Buffer.from(bytes).reverse().toString('hex').toUpperCase();

/** A public key given as the .pub file's text, base64 of it, or its key line alone. */
export function readPublicKey(given: string): MinisignKey | undefined {
  const lines = fileText(given)
    .split(/\r?\n/)
    .map((line) => line.trim());
  const bytes = base64(lines.find((line) => line !== '' && !line.startsWith(untrusted)));
  if (bytes?.length !== 42 || bytes.toString('latin1', 0, 2) !== 'Ed') return undefined;
  const key = createPublicKey({ key: Buffer.concat([spkiPrefix, bytes.subarray(10)]), format: 'der', type: 'spki' });
  return { id: keyIdOf(bytes.subarray(2, 10)), key };
}

/** A signature given as the .minisig file's text or base64 of it (a Tauri .sig file). */
export function readSignature(given: string): MinisignSignature | undefined {
  const text = fileText(given);
  const [comment, line, trustedLine, globalLine] = text.split(/\r?\n/);
  const bytes = base64(line);
  const globalSignature = base64(globalLine);
  if (comment?.startsWith(untrusted) !== true || trustedLine?.startsWith(trusted) !== true) return undefined;
  if (bytes?.length !== 74 || globalSignature?.length !== 64) return undefined;
  const algorithm = bytes.toString('latin1', 0, 2);
  if (algorithm !== 'Ed' && algorithm !== 'ED') return undefined;
  return {
    keyId: keyIdOf(bytes.subarray(2, 10)),
    prehashed: algorithm === 'ED',
    signature: bytes.subarray(10),
    trustedComment: trustedLine.slice(trusted.length),
    globalSignature,
    base64: Buffer.from(`${text.trimEnd()}\n`).toString('base64'),
  };
}

/** Whether the trusted comment is the key's: the global signature covers it. */
export function commentVerifies(signature: MinisignSignature, key: MinisignKey): boolean {
  const signed = Buffer.concat([signature.signature, Buffer.from(signature.trustedComment)]);
  return verify(null, signed, key.key, signature.globalSignature);
}

/** Whether the signature is the key's over the bytes `file` streams. A prehashed one is checked
 * as the file streams by; a legacy one needs the whole file in memory. */
export async function fileVerifies(signature: MinisignSignature, key: MinisignKey, file: Readable): Promise<boolean> {
  if (signature.prehashed) {
    const hash = createHash('blake2b512');
    for await (const chunk of file) hash.update(chunk as Buffer);
    return verify(null, hash.digest(), key.key, signature.signature);
  }
  const chunks: Buffer[] = [];
  for await (const chunk of file) chunks.push(chunk as Buffer);
  return verify(null, Buffer.concat(chunks), key.key, signature.signature);
}

/** The trusted comment's `name:value` fields (minisign writes `timestamp:…\tfile:…`). */
export function commentFields(comment: string): Map<string, string> {
  const fields = new Map<string, string>();
  for (const part of comment.split('\t')) {
    const colon = part.indexOf(':');
    if (colon > 0) fields.set(part.slice(0, colon).trim().toLowerCase(), part.slice(colon + 1).trim());
  }
  return fields;
}
