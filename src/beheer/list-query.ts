/**
 * A list's GET query (docs/beheer.md §4): search, the choice filters, a date range, answered or
 * not, and the keyset cursor of the page; read leniently (an unknown value is no filter, never an
 * error), written back for the next page and the export.
 */
import type { ListCursor, ListQuery } from '../storage/staff-types.js';
import type { FormAdmin } from './form-admin.js';

/** The longest search term taken. */
const MAX_TERM = 100;

/** A date of a date input. */
const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** A list's query as read from the address. */
export interface ReadQuery {
  /** For the storage. */
  query: ListQuery;
  /** As the page's form shows it. */
  shown: { q: string; van: string; tot: string; beantwoord: string; filters: Record<string, string> };
  /** The query string without the cursor (`?…` or ''), for the next page and the export. */
  search: string;
  after?: ListCursor;
  /** The filters applied, for the audit log: names and values, never the search term. */
  audited: Record<string, string | boolean>;
}

/** The day after an ISO date, as an ISO date. */
const dayAfter = (date: string) => new Date(Date.parse(`${date}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);

/** A query parameter's one string value, or ''. */
const one = (value: unknown): string => (typeof value === 'string' ? value : '');

/**
 * Reads a list's query.
 * @param params `req.query`
 */
export function readQuery(admin: FormAdmin, params: Record<string, unknown>): ReadQuery {
  const q = one(params.q).trim().slice(0, MAX_TERM);
  const van = DATE.test(one(params.van)) && !Number.isNaN(Date.parse(one(params.van))) ? one(params.van) : '';
  const tot = DATE.test(one(params.tot)) && !Number.isNaN(Date.parse(one(params.tot))) ? one(params.tot) : '';
  const beantwoord = admin.answerable && ['ja', 'nee'].includes(one(params.beantwoord)) ? one(params.beantwoord) : '';
  const filters: Record<string, string> = {};
  for (const field of admin.filters) {
    const value = one(params[field.name]);
    if (value in field.choices!) filters[field.name] = value;
  }
  const kept = new URLSearchParams();
  if (q) kept.set('q', q);
  for (const [name, value] of Object.entries(filters)) kept.set(name, value);
  if (beantwoord) kept.set('beantwoord', beantwoord);
  if (van) kept.set('van', van);
  if (tot) kept.set('tot', tot);
  const query: ListQuery = {
    table: admin.keep.table,
    ...(q && admin.search.length > 0 && { search: q }),
    equals: Object.entries(filters).map(([column, value]) => ({ column, value, list: admin.fields.find((f) => f.name === column)!.list })),
    ...(van && { from: `${van}T00:00:00.000Z` }),
    ...(tot && { before: `${dayAfter(tot)}T00:00:00.000Z` }),
    ...(beantwoord && { answered: beantwoord === 'ja' }),
  };
  const audited: Record<string, string | boolean> = { ...filters, search: q !== '' };
  if (van) audited.van = van;
  if (tot) audited.tot = tot;
  if (beantwoord) audited.beantwoord = beantwoord;
  const after = cursorOf(one(params.na));
  return { query, shown: { q, van, tot, beantwoord, filters }, search: kept.size > 0 ? `?${kept}` : '', ...(after && { after }), audited };
}

/** A cursor as the address carries it: `<ISO time>_<id>`. */
export const cursorParam = ({ createdAt, id }: ListCursor): string => `${createdAt}_${id}`;

/** The cursor of an address's `na`, or undefined when it is none. */
function cursorOf(value: string): ListCursor | undefined {
  const match = /^(\d{4}-\d{2}-\d{2}T[\d:.]+Z)_([0-9a-f-]{36})$/.exec(value);
  return match ? { createdAt: match[1]!, id: match[2]! } : undefined;
}

/**
 * The query string of the page after a cursor.
 * @param search the list's query string without the cursor (`ReadQuery.search`)
 */
export function nextPage(search: string, cursor: ListCursor): string {
  const params = new URLSearchParams(search);
  params.set('na', cursorParam(cursor));
  return `?${params}`;
}
