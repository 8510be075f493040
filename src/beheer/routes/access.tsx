/**
 * Beheer's routes for anyone (docs/beheer.md §1, §2): the login, a password link, and the logout
 * of a signed-in account.
 */
import type { Request } from 'express';
import { HttpError } from '../../errors.js';
import { Login } from '../../../views/beheer/Login.js';
import { Password } from '../../../views/beheer/Password.js';
import { addressDigest, checkLogin, LOGIN_REFUSED } from '../login.js';
import { hashPassword, passwordProblem } from '../passwords.js';
import { BEHEER, LOGIN_PATH, RETURN_PARAM, safeReturn, type BeheerRoute } from '../route.js';
import { clearSession, digest, startSession } from '../session.js';
import { posted } from './shared.js';

/** The page a login returns to: the query's, when it is a path of this site. */
function returnPath(req: Request): string | undefined {
  const back = req.query[RETURN_PARAM];
  return safeReturn(back) ? back : undefined;
}

/** The login, the logout and the password link. */
export function accessRoutes(): BeheerRoute[] {
  return [
    {
      path: LOGIN_PATH,
      access: 'anyone',
      answers: 'page',
      // As Rails's authentication generator: 10 tries in 3 minutes per client address; each account has its own lock besides.
      rateLimit: { limit: 10, windowMs: 3 * 60 * 1000 },
      async get({ req, res, staff, page }) {
        const back = returnPath(req);
        if (staff) return void res.redirect(303, back ?? BEHEER);
        const notice = req.query.wachtwoord === 'ingesteld' ? 'Je wachtwoord is ingesteld. Log nu in.' : undefined;
        page(200, 'Inloggen', <Login csrfToken={res.locals.csrfToken} back={back} notice={notice} />);
      },
      async post({ req, res, storage, secret, audit, page, metrics }) {
        const back = returnPath(req);
        const email = posted(req, 'email');
        const now = Date.now();
        const outcome = await checkLogin(storage, email, posted(req, 'wachtwoord'), now);
        if ('refused' in outcome) {
          // Neither the address nor the password: a digest tells an operator which attempts were one address's.
          metrics.logins.inc({ outcome: outcome.refused });
          req.log.warn({ event: 'login_failed', account: outcome.account?.id, address_digest: addressDigest(email), reason: outcome.refused }, 'login_failed');
          await audit({ staffId: outcome.account?.id, action: 'login_failed', detail: { reason: outcome.refused } });
          return page(401, 'Fout: Inloggen', <Login csrfToken={res.locals.csrfToken} back={back} email={email.slice(0, 254)} problem={LOGIN_REFUSED} />);
        }
        await startSession(req, res, storage, secret, outcome.account, now);
        metrics.logins.inc({ outcome: 'succeeded' });
        req.log.info({ event: 'login_succeeded', account: outcome.account.id }, 'login_succeeded');
        await audit({ staffId: outcome.account.id, action: 'login' });
        res.redirect(303, back ?? BEHEER);
      },
    },
    {
      path: `${BEHEER}/uitloggen`,
      access: 'reader',
      answers: 'page',
      async post({ req, res, staff, storage, audit }) {
        await storage.staff.endSession(staff!.idHash);
        clearSession(req, res);
        req.log.info({ event: 'logout', account: staff!.account.id }, 'logout');
        await audit({ action: 'logout' });
        res.redirect(303, LOGIN_PATH);
      },
    },
    {
      path: `${BEHEER}/wachtwoord/:token`,
      access: 'anyone',
      answers: 'page',
      secretParams: ['token'],
      async get({ req, res, storage, page }) {
        const account = await storage.staff.linkAccount(digest(String(req.params.token)), Date.now());
        if (account === undefined) throw new HttpError(404, 'Password link unknown, used or expired');
        page(200, 'Wachtwoord instellen', <Password csrfToken={res.locals.csrfToken} action={req.path} email={account.email} />);
      },
      async post({ req, res, storage, audit, page }) {
        const tokenHash = digest(String(req.params.token));
        const account = await storage.staff.linkAccount(tokenHash, Date.now());
        if (account === undefined) throw new HttpError(404, 'Password link unknown, used or expired');
        const password = posted(req, 'wachtwoord');
        const problem = passwordProblem(password) ?? (password !== posted(req, 'herhaling') ? 'De twee wachtwoorden zijn niet gelijk' : undefined);
        if (problem) return page(422, 'Fout: Wachtwoord instellen', <Password csrfToken={res.locals.csrfToken} action={req.path} email={account.email} problem={problem} />);
        const hash = await hashPassword(password);
        // Used once: of two posts at once, one sets the password.
        const staffId = await storage.staff.useLink(tokenHash, Date.now());
        if (staffId === undefined) throw new HttpError(404, 'Password link used meanwhile');
        await storage.staff.setPassword(staffId, hash);
        req.log.info({ event: 'password_set', account: staffId }, 'password_set');
        await audit({ staffId, action: 'password_set', about: staffId });
        res.redirect(303, `${LOGIN_PATH}?wachtwoord=ingesteld`);
      },
    },
  ];
}
