/**
 * The login's decision (docs/beheer.md §2): the same answer, status and time for an unknown
 * address, a disabled account, a locked one and a wrong password (each checks one scrypt hash);
 * after 10 failures an account waits 15 minutes, each next lock twice as long.
 */
import { createHash } from 'node:crypto';
import type { StaffAccount } from '../storage/staff-types.js';
import type { Storage } from '../storage/types.js';
import { verifyPassword } from './passwords.js';

/** Failures after which an account is locked. */
export const FAILURES_BEFORE_LOCK = 10;

/** The first lock's length, in ms: 15 minutes, doubling with each next one. */
export const LOCK_MS = 15 * 60 * 1000;

/** The one answer to a refused login. */
export const LOGIN_REFUSED = 'Dit e-mailadres en wachtwoord horen niet bij elkaar, of het account is tijdelijk geblokkeerd. Probeer het opnieuw of vraag een beheerder om een nieuwe link.';

/** An address as the log may name it: the first 16 hex digits of its SHA-256, never the address. */
export const addressDigest = (email: string): string => createHash('sha256').update(email.trim().toLowerCase()).digest('hex').slice(0, 16);

/**
 * Checks a login.
 * @param now ms since the epoch
 * @returns the account when the login succeeds; else what is known of why, for the log alone
 */
export async function checkLogin(storage: Storage, email: string, password: string, now: number): Promise<{ account: StaffAccount } | { refused: 'unknown' | 'disabled' | 'locked' | 'password'; account?: StaffAccount }> {
  const account = email.length <= 254 ? await storage.staff.accountByEmail(email.trim()) : undefined;
  // Checked whatever the account, so every refusal takes one hash's time.
  const matches = await verifyPassword(password, account?.passwordHash ?? null);
  if (account === undefined) return { refused: 'unknown' };
  if (account.disabledAt !== null) return { refused: 'disabled', account };
  if (account.lockedUntil !== null && account.lockedUntil > now) return { refused: 'locked', account };
  if (!matches) {
    await storage.staff.failedLogin(account.id, now, FAILURES_BEFORE_LOCK, LOCK_MS);
    return { refused: 'password', account };
  }
  await storage.staff.succeededLogin(account.id);
  return { account };
}
