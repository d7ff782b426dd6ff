/**
 * A release's Tauri signature checked at publish (docs/releases.md#tauri-signatures): refused
 * when it could never pass the updater's own check, before any installed app is told to update.
 */
import type { Readable } from 'node:stream';
import { HttpError, type ErrorDetail } from '../lib/errors.js';
import { fieldPath } from '../lib/error-codes.js';
import { compareParsed, parseVersion } from '../updates/version.js';
import { commentFields, commentVerifies, fileVerifies, readSignature, type MinisignKey } from '../lib/minisign.js';

export interface SignedPackage {
  /** The file's name: a hosted file's own, or the last segment of an outside address. */
  name: string;
  version: string | undefined;
  /** The file's bytes, when this server holds them; an outside address's are never fetched. */
  open: (() => Promise<Readable | undefined>) | undefined;
}

/** `pointer`: the release's own `signature`, or a payload's (`payloads/0/signature`). */
const refuser = (pointer: string) => (code: ErrorDetail['code'], message: string, found?: string) =>
  new HttpError(400, `body/${pointer}: ${message}`, {
    code,
    field: fieldPath(pointer),
    ...(found !== undefined && { found }),
  });

function sameVersion(a: string, b: string): boolean {
  const [left, right] = [parseVersion(a), parseVersion(b)];
  return left !== undefined && right !== undefined ? compareParsed(left, right) === 0 : a === b;
}

/** The signature as the updater is sent it (base64 of the signature file), or a refusal saying
 * which check failed. Without a key only its form and trusted comment can be checked. */
export async function checkedSignature(
  given: string,
  pkg: SignedPackage,
  key: MinisignKey | undefined,
  pointer = 'signature',
): Promise<string> {
  const refuse = refuser(pointer);
  const signature = readSignature(given);
  if (signature === undefined) {
    throw refuse('bad_signature', 'not a minisign signature; give the whole .sig file that tauri signer wrote');
  }
  if (key !== undefined) {
    if (signature.keyId !== key.id) {
      throw refuse(
        'signature_wrong_key',
        `made with key ${signature.keyId}, not TAURI_PUBLIC_KEY's ${key.id}`,
        signature.keyId,
      );
    }
    if (!commentVerifies(signature, key))
      throw refuse('bad_signature', 'its trusted comment was changed after signing');
  }
  const fields = commentFields(signature.trustedComment);
  const file = fields.get('file');
  if (file !== undefined && file !== pkg.name) {
    throw refuse('signature_other_file', `its trusted comment names the file ${file}, not ${pkg.name}`, file);
  }
  const version = fields.get('version');
  if (version !== undefined && pkg.version !== undefined && !sameVersion(version, pkg.version)) {
    throw refuse(
      'signature_other_version',
      `its trusted comment names version ${version}, not ${pkg.version}`,
      version,
    );
  }
  const bytes = key === undefined ? undefined : await pkg.open?.();
  if (key !== undefined && bytes !== undefined && !(await fileVerifies(signature, key, bytes))) {
    throw refuse('signature_mismatch', `it does not verify against ${pkg.name}: it signs other bytes`);
  }
  return signature.base64;
}
