/**
 * A password link's token kept for its e-mail (docs/beheer.md §1): sealed with AES-256-GCM under a
 * key derived from the site's secret, so the database alone never holds a usable link; the sealed
 * copy goes when the link is used or expires.
 */
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

/** The key of a secret, for links only. */
const keyOf = (secret: string) => createHash('sha256').update(`eiland staff link:${secret}`).digest();

/**
 * Seals a token.
 * @returns base64url of the nonce, the tag and the ciphertext
 */
export function seal(secret: string, token: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keyOf(secret), iv);
  const body = Buffer.concat([cipher.update(token, 'utf8'), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url');
}

/**
 * Opens a sealed token.
 * @throws Error when it was sealed under another secret or altered
 */
export function unseal(secret: string, sealed: string): string {
  const raw = Buffer.from(sealed, 'base64url');
  const decipher = createDecipheriv('aes-256-gcm', keyOf(secret), raw.subarray(0, 12));
  decipher.setAuthTag(raw.subarray(12, 28));
  return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
}
