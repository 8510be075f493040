/**
 * Staff passwords (docs/beheer.md §1): 15 to 128 characters after NFKC normalisation, no
 * composition rules (NIST SP 800-63B-4), hashed with scrypt at OWASP's parameters (N=2^17, r=8,
 * p=1) and a random salt. A hash is `scrypt$<log2 N>$<r>$<p>$<salt>$<key>`, base64url.
 */
import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/** Characters a password has at least and at most, counted after normalisation. */
export const PASSWORD_LENGTH = { min: 15, max: 128 } as const;

const LOG_N = 17;
const PARAMS: ScryptOptions = { N: 2 ** LOG_N, r: 8, p: 1, maxmem: 256 * 1024 * 1024 };
const KEY_BYTES = 32;

/** The derived key of a password and salt. */
function derive(password: string, salt: Buffer, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) => scrypt(password, salt, KEY_BYTES, options, (error, key) => (error ? reject(error) : resolve(key))));
}

/**
 * Why a password cannot be one, its length counted after NFKC normalisation.
 * @returns the Dutch message, or undefined when it can
 */
export function passwordProblem(password: string): string | undefined {
  const length = [...password.normalize('NFKC')].length;
  if (length < PASSWORD_LENGTH.min) return `Een wachtwoord heeft minstens ${PASSWORD_LENGTH.min} tekens`;
  if (length > PASSWORD_LENGTH.max) return `Een wachtwoord heeft hoogstens ${PASSWORD_LENGTH.max} tekens`;
  return undefined;
}

/**
 * Hashes a password (about 130 MiB and a few hundred ms of one libuv thread).
 * @returns `scrypt$17$8$1$<salt>$<key>`
 */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password.normalize('NFKC'), salt, PARAMS);
  return ['scrypt', LOG_N, PARAMS.r, PARAMS.p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

/** A hash no password matches, of the same cost: an unknown address is checked against it, so it takes as long as a known one. */
let decoy: Promise<string> | undefined;

/**
 * Whether a password matches a hash, in the time of one hash whatever the outcome.
 * @param hash a hash of {@link hashPassword}, or null (no account, or no password yet): then a
 *   decoy of the same cost is checked and the answer is false
 */
export async function verifyPassword(password: string, hash: string | null): Promise<boolean> {
  const stored = hash ?? (await (decoy ??= hashPassword(randomBytes(24).toString('base64url'))));
  const [scheme, logN, r, p, salt, key] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !key) return false;
  const expected = Buffer.from(key, 'base64url');
  const actual = await derive(password.normalize('NFKC'), Buffer.from(salt, 'base64url'), { N: 2 ** Number(logN), r: Number(r), p: Number(p), maxmem: PARAMS.maxmem });
  return timingSafeEqual(actual, expected) && hash !== null;
}
