/**
 * Beheer's route table (docs/beheer.md §3): every route with the role it needs, in one list that
 * src/beheer/route.ts mounts and the tests walk. The login and a password link are for anyone;
 * reading, listing and exporting need a `lezer`; erasing, marking answered and the audit log a
 * `beheerder`.
 */
import type { Request } from 'express';
import { HttpError } from '../errors.js';
import type { FormDefinition } from '../forms/define.js';
import type { ListedRow } from '../storage/staff-types.js';
import { Detail } from '../../views/beheer/Detail.js';
import { Erase, ERASE_CONFIRMED } from '../../views/beheer/Erase.js';
import { List } from '../../views/beheer/List.js';
import { Logboek } from '../../views/beheer/Logboek.js';
import { Login } from '../../views/beheer/Login.js';
import { Overview } from '../../views/beheer/Overview.js';
import type { Account } from '../../views/beheer/parts.js';
import { when } from '../../views/beheer/parts.js';
import { Password } from '../../views/beheer/Password.js';
import { notifyKind } from '../storage/notify.js';
import { writeCsv } from './csv.js';
import { formAdmins, type AdminField, type FormAdmin } from './form-admin.js';
import { nextPage, readQuery } from './list-query.js';
import { addressDigest, checkLogin, LOGIN_REFUSED } from './login.js';
import { hashPassword, passwordProblem } from './passwords.js';
import { ROLE_NAMES } from './roles.js';
import { BEHEER, LOGIN_PATH, RETURN_PARAM, safeReturn, type BeheerContext, type BeheerRoute } from './route.js';
import { clearSession, digest, startSession, type SignedIn } from './session.js';

/** Rows of a list page. */
export const PAGE_SIZE = 50;

/** Rows read at a time for an export. */
const EXPORT_PAGE = 1000;

/** Entries of a page of the audit log. */
const LOG_PAGE = 100;

/** A week, in ms: the overview's "last 7 days". */
const WEEK_MS = 7 * 24 * 60 * 60 * 1000;

/** The outbox's states as staff read them (docs/operations.md §12). */
const MAIL_STATES: Record<string, string> = { pending: 'wordt verstuurd', sent: 'verstuurd', suppressed: 'niet verstuurd (limiet per ontvanger)', set_aside: 'apart gezet na mislukte pogingen' };

/** The account as a page shows it. */
const accountProps = ({ account, csrfToken }: SignedIn): Account => ({ email: account.email, role: ROLE_NAMES[account.role], admin: account.role === 'admin', csrfToken });

/** A stored value as a cell: a list joined, a number as text, nothing as ''. */
function cell(field: AdminField, value: unknown): string {
  if (value === null || value === undefined) return '';
  if (Array.isArray(value)) return value.map((item) => field.choices?.[String(item)] ?? String(item)).join(', ');
  return field.choices?.[String(value)] ?? String(value);
}

/** A time of a row (ISO 8601) as staff read it. */
const shown = (iso: string) => when(Date.parse(iso));

/** A request's string field of the posted body, or ''. */
const posted = (req: Request, name: string): string => {
  const value = (req.body as Record<string, unknown> | undefined)?.[name];
  return typeof value === 'string' ? value : '';
};

/**
 * Beheer's routes.
 * @param forms the site's forms: every one that keeps its submissions gets a list
 */
export function beheerRoutes(forms: readonly FormDefinition[]): BeheerRoute[] {
  const admins = formAdmins(forms);
  const adminOf = (name: unknown): FormAdmin => {
    const admin = admins.find((a) => a.name === name);
    if (admin === undefined) throw new HttpError(404, 'No such form in beheer');
    return admin;
  };
  /** The submission of a request's `:form` and `:id`, with its form. */
  const submissionOf = async ({ req, storage }: BeheerContext): Promise<{ admin: FormAdmin; id: string; listed: ListedRow }> => {
    const admin = adminOf(req.path.split('/')[2]);
    const id = String(req.params.id);
    const listed = /^[0-9a-f-]{36}$/.test(id) ? await storage.staff.listed(admin.keep.table, id) : undefined;
    if (listed === undefined) throw new HttpError(404, 'No such submission');
    return { admin, id, listed };
  };
  const read = (admin: FormAdmin, listed: ListedRow) => admin.keep.read(listed.row) as Record<string, unknown>;

  const table: BeheerRoute[] = [
    {
      path: LOGIN_PATH,
      access: 'anyone',
      answers: 'page',
      // As Rails's authentication generator: 10 tries in 3 minutes per client address; each account has its own lock besides.
      rateLimit: { limit: 10, windowMs: 3 * 60 * 1000 },
      async get({ req, res, staff, page }) {
        const back = safeReturn(req.query[RETURN_PARAM]) ? (req.query[RETURN_PARAM] as string) : undefined;
        if (staff) return void res.redirect(303, back ?? BEHEER);
        const notice = req.query.wachtwoord === 'ingesteld' ? 'Je wachtwoord is ingesteld. Log nu in.' : undefined;
        page(200, 'Inloggen', <Login csrfToken={res.locals.csrfToken} back={back} notice={notice} />);
      },
      async post({ req, res, storage, secret, audit, page, metrics }) {
        const back = safeReturn(req.query[RETURN_PARAM]) ? (req.query[RETURN_PARAM] as string) : undefined;
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
    {
      path: BEHEER,
      access: 'reader',
      answers: 'page',
      async get({ staff, storage, page }) {
        const now = Date.now();
        const seen = await storage.staff.lastSeen(staff!.account.id);
        const totals = await Promise.all(
          admins.map(async (admin) => {
            const since = { all: new Date(0).toISOString(), week: new Date(now - WEEK_MS).toISOString(), fresh: new Date(seen[admin.name] ?? 0).toISOString() };
            const counted = await storage.staff.counts(admin.keep.table, since);
            return { name: admin.name, title: admin.title, all: counted.all!, week: counted.week!, fresh: counted.fresh! };
          }),
        );
        page(200, 'Beheer', <Overview account={accountProps(staff!)} forms={totals} />);
      },
    },
    {
      path: `${BEHEER}/logboek`,
      access: 'admin',
      answers: 'page',
      async get({ req, staff, storage, page }) {
        const before = /^(\d+)_([0-9a-f-]{36})$/.exec(String(req.query.na ?? ''));
        const entries = await storage.staff.auditLog(LOG_PAGE + 1, before ? { at: Number(before[1]), id: before[2]! } : undefined);
        const shownEntries = entries.slice(0, LOG_PAGE);
        const last = shownEntries.at(-1);
        const next = entries.length > LOG_PAGE && last ? `?na=${last.at}_${last.id}` : undefined;
        const rows = shownEntries.map((entry) => ({
          id: entry.id,
          at: when(entry.at),
          who: entry.email ?? (entry.staffId ? entry.staffId : 'onbekend'),
          action: entry.action,
          about: [entry.form, entry.about, entry.detail && JSON.stringify(entry.detail)].filter(Boolean).join(' '),
          address: entry.address ?? '',
        }));
        page(200, 'Logboek', <Logboek account={accountProps(staff!)} entries={rows} next={next} />);
      },
    },
    {
      path: `${BEHEER}/:form`,
      access: 'reader',
      answers: 'page',
      async get({ req, staff, storage, audit, page }) {
        const admin = adminOf(req.params.form);
        const asked = readQuery(admin, req.query as Record<string, unknown>);
        const found = await storage.staff.list(asked.query, PAGE_SIZE + 1, asked.after);
        const rows = found.slice(0, PAGE_SIZE);
        const last = rows.at(-1);
        if (asked.after === undefined) await storage.staff.markSeen(staff!.account.id, admin.name, Date.now());
        await audit({ action: 'list', form: admin.name, detail: { ...asked.audited, rows: rows.length } });
        page(
          200,
          `${admin.title}: inzendingen`,
          <List
            account={accountProps(staff!)}
            form={{ name: admin.name, title: admin.title, answerable: admin.answerable, searchable: admin.search.length > 0 }}
            columns={[...admin.columns.map((c) => c.label), 'Ontvangen']}
            rows={rows.map((listed) => {
              const values = admin.keep.read(listed.row) as Record<string, unknown>;
              return { id: listed.row.id, cells: admin.columns.map((c) => cell(c, values[c.name])), at: shown(listed.row.createdAt), answered: listed.answered !== undefined };
            })}
            query={asked.shown}
            filters={admin.filters.map((f) => ({ name: f.name, label: f.label, options: f.choices!, value: asked.shown.filters[f.name] ?? '' }))}
            next={found.length > PAGE_SIZE && last ? nextPage(asked.search, { createdAt: last.row.createdAt, id: last.row.id }) : undefined}
            exportQuery={asked.search}
          />,
        );
      },
    },
    {
      path: `${BEHEER}/:form/export`,
      access: 'reader',
      answers: 'download',
      async get({ req, res, storage, audit }) {
        const admin = adminOf(req.params.form);
        const asked = readQuery(admin, req.query as Record<string, unknown>);
        const date = new Date().toISOString().slice(0, 10);
        res.status(200).set('Content-Type', 'text/csv; charset=utf-8').set('Content-Disposition', `attachment; filename="eiland-${admin.name}-${date}.csv"`);
        async function* pages() {
          let after = asked.after;
          for (;;) {
            const page = await storage.staff.list(asked.query, EXPORT_PAGE, after);
            yield page.map((listed) => {
              const values = read(admin, listed);
              return [...admin.fields.map((f) => cell(f, values[f.name])), listed.row.createdAt, ...(admin.answerable ? [listed.answered ? 'ja' : 'nee'] : [])];
            });
            if (page.length < EXPORT_PAGE) return;
            const last = page.at(-1)!.row;
            after = { createdAt: last.createdAt, id: last.id };
          }
        }
        const header = [...admin.fields.map((f) => f.label), 'Ontvangen', ...(admin.answerable ? ['Beantwoord'] : [])];
        const rows = await writeCsv(res, header, pages());
        await audit({ action: 'export', form: admin.name, detail: { ...asked.audited, rows } });
        res.end();
      },
    },
    {
      path: `${BEHEER}/:form/:id`,
      access: 'reader',
      answers: 'page',
      async get(ctx) {
        const { admin, id, listed } = await submissionOf(ctx);
        const values = read(admin, listed);
        const mail = (await ctx.storage.staff.mailStates(id)).map(({ kind, state }) => `${kind === notifyKind(admin.name) ? 'melding aan de organisatie' : 'e-mail aan de afzender'}: ${MAIL_STATES[state] ?? state}`);
        await ctx.audit({ action: 'detail', form: admin.name, about: id });
        ctx.page(
          200,
          `${admin.title}: inzending`,
          <Detail
            account={accountProps(ctx.staff!)}
            form={{ name: admin.name, title: admin.title, answerable: admin.answerable }}
            id={id}
            fields={admin.fields.map((f) => ({ label: f.label, value: cell(f, values[f.name]) }))}
            at={shown(listed.row.createdAt)}
            mail={mail}
            answered={listed.answered && `ja, door ${listed.answered.email ?? 'een verwijderd account'} op ${when(listed.answered.at)}`}
          />,
        );
      },
    },
    {
      path: `${BEHEER}/:form/:id/beantwoord`,
      access: 'admin',
      answers: 'page',
      async post(ctx) {
        const { admin, id } = await submissionOf(ctx);
        if (!admin.answerable) throw new HttpError(404, 'This form is not answered');
        await ctx.storage.staff.markAnswered(admin.name, id, ctx.staff!.account.id, Date.now());
        await ctx.audit({ action: 'answered', form: admin.name, about: id });
        ctx.res.redirect(303, `${BEHEER}/${admin.name}/${id}`);
      },
    },
    {
      path: `${BEHEER}/:form/:id/gegevens`,
      access: 'admin',
      answers: 'download',
      async get(ctx) {
        const { admin, id, listed } = await submissionOf(ctx);
        await ctx.audit({ action: 'person_export', form: admin.name, about: id });
        ctx.res
          .status(200)
          .set('Content-Type', 'application/json; charset=utf-8')
          .set('Content-Disposition', `attachment; filename="eiland-${admin.name}-${id}.json"`)
          .send(JSON.stringify(read(admin, listed), null, 2));
      },
    },
    {
      path: `${BEHEER}/:form/:id/verwijderen`,
      access: 'admin',
      answers: 'page',
      async get(ctx) {
        const { admin, id, listed } = await submissionOf(ctx);
        const name = String(read(admin, listed).naam ?? id);
        ctx.page(200, 'Inzending verwijderen', <Erase account={accountProps(ctx.staff!)} form={admin} id={id} name={name} />);
      },
      async post(ctx) {
        const { admin, id, listed } = await submissionOf(ctx);
        if (posted(ctx.req, 'bevestigd') !== ERASE_CONFIRMED) {
          const name = String(read(admin, listed).naam ?? id);
          return ctx.page(200, 'Inzending verwijderen', <Erase account={accountProps(ctx.staff!)} form={admin} id={id} name={name} />);
        }
        // The same erasure as the person's own (docs/pages.md §7): the row, its e-mails and their copies.
        if (!(await ctx.storage.erase(admin.keep.table, id))) throw new HttpError(404, 'Erased meanwhile');
        ctx.req.log.info({ event: 'submission_erased', form: admin.name }, 'submission_erased');
        await ctx.audit({ action: 'erase', form: admin.name, about: id });
        ctx.res.redirect(303, `${BEHEER}/${admin.name}`);
      },
    },
  ];
  // A submission's id opens a person's own page (docs/pages.md §7), so it is masked in every log
  // line; the mask takes fixed segments before a secret, so each form gets its routes.
  return table.flatMap((route) => (route.path.includes(':form/:id') ? admins.map((admin) => ({ ...route, path: route.path.replace(':form', admin.name), secretParams: ['id'] })) : [route]));
}
