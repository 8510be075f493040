/**
 * Beheer's lists (docs/beheer.md §4, §6, §7): the overview, each form's submissions with search,
 * filters and keyset pages, their CSV export, and the audit log.
 */
import { List } from '../../../views/beheer/List.js';
import { Logboek } from '../../../views/beheer/Logboek.js';
import { Overview } from '../../../views/beheer/Overview.js';
import { when } from '../../../views/beheer/parts.js';
import { writeCsv } from '../csv.js';
import { nextPage, readQuery } from '../list-query.js';
import { valueText } from '../form-admin.js';
import { BEHEER, type BeheerRoute } from '../route.js';
import { accountProps, shown, valuesOf, type Forms } from './shared.js';

/** Rows of a list page. */
export const PAGE_SIZE = 50;

/** Rows read at a time for an export. */
const EXPORT_PAGE = 1000;

/** Entries of a page of the audit log. */
const LOG_PAGE = 100;

/** A week, in ms: the overview's "last 7 days". */
const WEEK_MS = 7 * 24 * 60 * 60 * 1000;

/** The overview, the audit log, each form's list and its export. */
export function listRoutes({ admins, adminOf }: Forms): BeheerRoute[] {
  return [
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
              return { id: listed.row.id, cells: admin.columns.map((c) => valueText(c, values[c.name])), at: shown(listed.row.createdAt), answered: listed.answered !== undefined };
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
              const values = valuesOf(admin, listed);
              return [...admin.fields.map((f) => valueText(f, values[f.name])), listed.row.createdAt, ...(admin.answerable ? [listed.answered ? 'ja' : 'nee'] : [])];
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
  ];
}
