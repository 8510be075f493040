/**
 * `npm run staff -- <command>` (docs/beheer.md §1): staff accounts on the configured database
 * (`DATABASE_URL`, or the SQLite file). `add` and `reset` print a one-time link where the person
 * sets a password, valid 24 hours, and, when mail is configured, put its e-mail in the outbox. Exit codes: 0 done, 1 refused (an unknown or existing account,
 * the database unreachable), 2 a command line that is not one.
 */
import type { Writable } from 'node:stream';
import { check as isMailbox } from '../../islands/lib/rules/isMailbox.js';
import type { StaffAccount } from '../storage/staff-types.js';
import type { Storage } from '../storage/types.js';
import { ROLE_NAMES, roleNamed } from './roles.js';
import { seal } from './seal.js';
import { digest, newSecret } from './session.js';

/** How long a password link is valid, in ms. */
export const LINK_MS = 24 * 60 * 60 * 1000;

/** The commands, as `help` prints them. */
export const USAGE = `npm run staff -- add <email> --role reader|admin   a new account; prints its password link
npm run staff -- reset <email>                     a new password link; ends the account's sessions
npm run staff -- disable <email>                   the account can no longer log in; ends its sessions
npm run staff -- list                              every account with its role and state`;

/** A command line that is not one (exit code 2). */
export class UsageError extends Error {
  constructor(message: string) {
    super(`${message}\n\n${USAGE}`);
    this.name = 'UsageError';
  }
}

/** An account's line of `list`: address, Dutch role, state. */
export const accountLine = (account: StaffAccount): string =>
  [account.email, ROLE_NAMES[account.role], account.disabledAt !== null ? 'uitgeschakeld' : account.passwordHash === null ? 'wacht op wachtwoord' : 'actief'].join('\t');

/**
 * A new password link for an account, its digest stored; with the site's secret, also its e-mail
 * in the outbox, the token sealed under that secret for it.
 * @param account the account's id
 */
async function link(storage: Storage, origin: string, account: string, now: number, secret: string | undefined): Promise<string> {
  const token = newSecret();
  const mail = secret === undefined ? undefined : { sealed: seal(secret, token) };
  await storage.staff.addLink(digest(token), account, now + LINK_MS, mail);
  return `${origin}/beheer/wachtwoord/${token}`;
}

/** What the command says of the link's e-mail. */
const mailed = (secret: string | undefined, email: string) => (secret === undefined ? '' : `It is also e-mailed to ${email} through the outbox, sent by a running instance.\n`);

/** An address from the command line, or a usage error. */
function address(value: string | undefined): string {
  if (value === undefined || !isMailbox(value.trim(), [])) throw new UsageError(`Not an e-mail address: "${value ?? ''}"`);
  return value.trim().toLowerCase();
}

/**
 * Runs one command.
 * @param args the words after `npm run staff --`
 * @param out where its answer goes
 * @param now ms since the epoch
 * @param secret the site's secret when mail is configured (`SMTP_URL`): the link is then e-mailed too
 * @returns the exit code: 0, or 1 when the account is unknown or already there
 * @throws UsageError for a command line that is not one
 */
export async function staffCommand(args: readonly string[], storage: Storage, origin: string, out: Writable, now = Date.now(), secret?: string): Promise<number> {
  const [command, ...rest] = args;
  const unknown = (email: string) => {
    out.write(`No account for ${email}\n`);
    return 1;
  };
  switch (command) {
    case 'add': {
      const roleAt = rest.indexOf('--role');
      const roleName = roleAt === -1 ? undefined : rest[roleAt + 1];
      if (roleName === undefined) throw new UsageError('add needs --role reader or --role admin');
      const role = (() => {
        try {
          return roleNamed(roleName);
        } catch (error) {
          throw new UsageError((error as Error).message);
        }
      })();
      const email = address(rest.filter((_, i) => i !== roleAt && i !== roleAt + 1)[0]);
      const id = await storage.staff.addAccount(email, role, now);
      if (id === undefined) {
        out.write(`${email} already has an account: use reset for a new link\n`);
        return 1;
      }
      await storage.staff.audit({ action: 'account_added', about: id, detail: { role }, address: 'cli' }, now);
      out.write(`Added ${email} as ${ROLE_NAMES[role]}. Password link (valid 24 hours, usable once):\n${await link(storage, origin, id, now, secret)}\n${mailed(secret, email)}`);
      return 0;
    }
    case 'reset': {
      const email = address(rest[0]);
      const account = await storage.staff.accountByEmail(email);
      if (account === undefined) return unknown(email);
      await storage.staff.setPassword(account.id, null);
      await storage.staff.audit({ action: 'account_reset', about: account.id, address: 'cli' }, now);
      out.write(`Reset ${email}: its sessions are ended. Password link (valid 24 hours, usable once):\n${await link(storage, origin, account.id, now, secret)}\n${mailed(secret, email)}`);
      return 0;
    }
    case 'disable': {
      const email = address(rest[0]);
      const account = await storage.staff.accountByEmail(email);
      if (account === undefined) return unknown(email);
      await storage.staff.disable(account.id, now);
      await storage.staff.audit({ action: 'account_disabled', about: account.id, address: 'cli' }, now);
      out.write(`Disabled ${email}: its sessions are ended.\n`);
      return 0;
    }
    case 'list': {
      const accounts = await storage.staff.accounts();
      out.write(accounts.length === 0 ? 'No accounts.\n' : `${accounts.map(accountLine).join('\n')}\n`);
      return 0;
    }
    default:
      throw new UsageError(command === undefined ? 'No command given' : `Unknown command "${command}"`);
  }
}
