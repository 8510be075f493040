/**
 * What beheer's routes share (docs/beheer.md §4): the account as a page shows it, a stored value as
 * a cell, the forms by name and a request's submission.
 */
import type { Request } from 'express';
import { HttpError } from '../../errors.js';
import type { ListedRow } from '../../storage/staff-types.js';
import type { Account } from '../../../views/beheer/parts.js';
import { when } from '../../../views/beheer/parts.js';
import type { FormAdmin } from '../form-admin.js';
import { ROLE_NAMES } from '../roles.js';
import type { BeheerContext } from '../route.js';
import type { SignedIn } from '../session.js';

/** The account as a page shows it. */
export const accountProps = ({ account, csrfToken }: SignedIn): Account => ({ email: account.email, role: ROLE_NAMES[account.role], admin: account.role === 'admin', csrfToken });

/** A time of a row (ISO 8601) as staff read it. */
export const shown = (iso: string): string => when(Date.parse(iso));

/** A request's string field of the posted body, or ''. */
export const posted = (req: Request, name: string): string => {
  const value = (req.body as Record<string, unknown> | undefined)?.[name];
  return typeof value === 'string' ? value : '';
};

/** A listed row's values, as its form reads them. */
export const valuesOf = (admin: FormAdmin, listed: ListedRow): Record<string, unknown> => admin.keep.read(listed.row) as Record<string, unknown>;

/** The forms beheer shows, found by name, and a request's submission. */
export interface Forms {
  admins: readonly FormAdmin[];
  /** @throws HttpError 404 when no form keeps submissions by that name */
  adminOf(name: unknown): FormAdmin;
  /** The submission of a request's form (its path's third segment) and `:id`. @throws HttpError 404 when there is none */
  submissionOf(ctx: BeheerContext): Promise<{ admin: FormAdmin; id: string; listed: ListedRow }>;
}

/** The lookups over the forms beheer shows. */
export function formsOf(admins: readonly FormAdmin[]): Forms {
  const adminOf = (name: unknown): FormAdmin => {
    const admin = admins.find((a) => a.name === name);
    if (admin === undefined) throw new HttpError(404, 'No such form in beheer');
    return admin;
  };
  return {
    admins,
    adminOf,
    async submissionOf({ req, storage }) {
      const admin = adminOf(req.path.split('/')[2]);
      const id = String(req.params.id);
      const listed = /^[0-9a-f-]{36}$/.test(id) ? await storage.staff.listed(admin.keep.table, id) : undefined;
      if (listed === undefined) throw new HttpError(404, 'No such submission');
      return { admin, id, listed };
    },
  };
}
