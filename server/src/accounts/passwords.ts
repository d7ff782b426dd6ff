/**
 * Operators' passwords, hashed with scrypt from node:crypto. The parameters follow OWASP's
 * password storage guidance for scrypt (N=2^15, r=8, p=3: 32 MiB and about 100 ms a hash here)
 * and travel inside each stored hash, so they can be raised later without breaking old ones.
 * Every hash runs in the process's scrypt pool, and rejects with PasswordChecksBusy when it is
 * full.
 */
import { randomBytes, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { scryptPool, type Slot } from './scrypt-pool.js';

const current = { N: 2 ** 15, r: 8, p: 3 };
const keyBytes = 32;

function derive(password: string, salt: Buffer, options: ScryptOptions, slot?: Slot): Promise<Buffer> {
  const maxmem = 256 * (options.N ?? 0) * (options.r ?? 0) + 1024 * 1024;
  return scryptPool.derive(password.normalize('NFC'), salt, keyBytes, { ...options, maxmem }, slot);
}

/** `scrypt$N$r$p$<salt>$<key>`, salt and key in base64url. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, current);
  return ['scrypt', current.N, current.r, current.p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

/** Whether `password` is the one `stored` was made from; in `slot` when the caller took one. */
export async function verifyPassword(password: string, stored: string, slot?: Slot): Promise<boolean> {
  const [scheme, n, r, p, salt, key] = stored.split('$');
  if (scheme !== 'scrypt' || salt === undefined || key === undefined) return false;
  const expected = Buffer.from(key, 'base64url');
  const given = await derive(
    password,
    Buffer.from(salt, 'base64url'),
    { N: Number(n), r: Number(r), p: Number(p) },
    slot,
  );
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** A hash no password matches, verified against when the user does not exist, so that a wrong
 * name takes as long to refuse as a wrong password. */
export const unmatchableHash = `scrypt$${current.N}$${current.r}$${current.p}$${'A'.repeat(22)}$${'A'.repeat(43)}`;

/** What is wrong with a new password, or undefined. */
export function passwordProblem(password: string): string | undefined {
  if ([...password].length < 10) return 'a password needs at least 10 characters';
  if (password.length > 1024) return 'a password has at most 1024 characters';
  return undefined;
}
