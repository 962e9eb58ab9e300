// Owner passwords as scrypt hashes: scrypt$N$r$p$<salt b64>$<hash b64>. The cost is configuration
// (PASSWORD_SCRYPT_LOG2N); a hash made at another cost still verifies, and `needsRehash` says to make it anew.
import { randomBytes, scrypt as scryptCb, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/** N = 2^16: about 64 MiB and a tenth of a second or more per hash. */
export const DEFAULT_SCRYPT_LOG2N = 16;
const R = 8;
const P = 1;
const KEY_LENGTH = 64;
// scrypt needs 128 · N · r bytes; Node refuses more than 32 MiB unless told (N = 2^16 needs 64 MiB).
const maxmemFor = (n: number) => 256 * n * R;

function scrypt(password: string, salt: Buffer, options: ScryptOptions): Promise<Buffer> {
  return new Promise((ok, fail) => scryptCb(password, salt, KEY_LENGTH, options, (err, key) => (err ? fail(err) : ok(key))));
}

export async function hashPassword(password: string, log2N: number = DEFAULT_SCRYPT_LOG2N): Promise<string> {
  const n = 2 ** log2N;
  const salt = randomBytes(16);
  const hash = await scrypt(password, salt, { N: n, r: R, p: P, maxmem: maxmemFor(n) });
  return ['scrypt', n, R, P, salt.toString('base64'), hash.toString('base64')].join('$');
}

export async function verifyPassword(password: string, stored: string | null): Promise<boolean> {
  const parts = stored?.split('$') ?? [];
  if (parts.length !== 6 || parts[0] !== 'scrypt') return false;
  const [, n, r, p, salt, hash] = parts as [string, string, string, string, string, string];
  const expected = Buffer.from(hash, 'base64');
  const actual = await scrypt(password, Buffer.from(salt, 'base64'), { N: Number(n), r: Number(r), p: Number(p), maxmem: maxmemFor(Number(n)) });
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/** True when the hash was made at another cost than the configured one (re-hashed at the next sign-in). */
export function needsRehash(stored: string, log2N: number): boolean {
  const [scheme, n, r, p] = stored.split('$');
  return scheme !== 'scrypt' || Number(n) !== 2 ** log2N || Number(r) !== R || Number(p) !== P;
}
