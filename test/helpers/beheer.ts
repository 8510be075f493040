/**
 * Beheer's accounts as the tests make them (docs/beheer.md §1–§2): an account added by the staff
 * command, its password set through its link, signed in as a browser would, and a signed-in
 * session's requests.
 */
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { staffCommand } from '../../src/beheer/staff-command.js';
import type { Role } from '../../src/storage/staff-types.js';
import type { Storage } from '../../src/storage/types.js';
import { CSRF_FIELD } from '../../protocol/forms.js';
import { freshAddress, raw, type RawResponse } from './app.js';
import { cookiesOf, encode, openForm, postForm, type Fields } from './form.js';

/** A password of the allowed length. */
export const PASSWORD = 'een lange zin als wachtwoord';

/** Where a test app answers. */
interface Target {
  port: number;
  url: string;
  storage: Storage;
}

/** A signed-in session. */
export interface Signed {
  email: string;
  cookie: string;
  /** The session's CSRF token, read from a beheer page. */
  token: string;
  from: string;
}

let accounts = 0;

/**
 * Runs the staff command on an app's storage.
 * @returns its exit code and what it printed
 */
export async function staff(app: Target, ...args: string[]): Promise<{ code: number; out: string }> {
  let out = '';
  const sink = new Writable({ write: (chunk, _encoding, done) => ((out += String(chunk)), done()) });
  const code = await staffCommand(args, app.storage, app.url, sink);
  return { code, out };
}

/** The path of the link a staff command printed. */
export function linkIn(out: string): string {
  const link = /https?:\/\/\S+(\/beheer\/wachtwoord\/\S+)/.exec(out)?.[1];
  assert.ok(link, `a link in ${out}`);
  return link;
}

/** Sets a password through a link, as its form posts it. */
export async function setPassword(app: Target, link: string, password = PASSWORD, repeated = password): Promise<RawResponse> {
  return postForm(app, link, { wachtwoord: password, herhaling: repeated });
}

/** Posts the login form from an address. */
export async function login(app: Target, email: string, password: string, from = freshAddress(), query = ''): Promise<RawResponse> {
  return postForm(app, `/beheer/inloggen${query}`, { email, wachtwoord: password }, await openForm(app, '/beheer/inloggen', from));
}

/**
 * A new account of a role with its password set, signed in.
 * @param role `reader` or `admin`
 */
export async function signIn(app: Target, role: Role): Promise<Signed> {
  const email = `staf-${process.pid}-${++accounts}@example.org`;
  const added = await staff(app, 'add', email, '--role', role);
  assert.equal(added.code, 0, added.out);
  assert.equal((await setPassword(app, linkIn(added.out))).status, 303);
  const from = freshAddress();
  const res = await login(app, email, PASSWORD, from);
  assert.equal(res.status, 303, res.body);
  const cookie = cookiesOf(res).split('; ').filter((c) => c.startsWith('beheer=')).join('; ');
  const page = await raw(app.port, '/beheer', { from, headers: { Cookie: cookie } });
  const token = new RegExp(`name="${CSRF_FIELD}" value="([^"]+)"`).exec(page.body)?.[1];
  assert.ok(token, 'a token on the overview');
  return { email, cookie, token, from };
}

/** A signed-in GET. */
export const get = (app: Target, path: string, signed?: Signed): Promise<RawResponse> => raw(app.port, path, { from: signed?.from, headers: signed ? { Cookie: signed.cookie } : {} });

/** A signed-in same-origin POST with the session's token (unless the fields give another). */
export const post = (app: Target, path: string, fields: Fields, signed?: Signed): Promise<RawResponse> =>
  raw(app.port, path, {
    method: 'POST',
    from: signed?.from,
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', Origin: app.url, 'Sec-Fetch-Site': 'same-origin', ...(signed && { Cookie: signed.cookie }) },
    body: encode({ ...(signed && { [CSRF_FIELD]: signed.token }), ...fields }),
  });
