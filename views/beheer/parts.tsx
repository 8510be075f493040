/**
 * What beheer's pages share (docs/beheer.md): the bar with the account and the logout, a form's
 * token field, an error summary, and a time as people read it.
 */
import type { ReactNode } from 'react';
import { CSRF_FIELD } from '../../protocol/forms.js';

/** The signed-in account as a page shows it. */
export interface Account {
  email: string;
  /** Its role's Dutch name. */
  role: string;
  admin: boolean;
  csrfToken: string;
}

/** The token field of a beheer form. */
export const Token = ({ value }: { value: string }) => <input type="hidden" name={CSRF_FIELD} value={value} />;

/** Dutch dates in Amsterdam's time, made once: a list page formats one per row. */
const DUTCH_TIME = new Intl.DateTimeFormat('nl-NL', { dateStyle: 'short', timeStyle: 'short', timeZone: 'Europe/Amsterdam' });

/** A time (ms since the epoch) in Dutch, in Amsterdam's time: `28-11-2026, 16:05`. */
export function when(ms: number): string {
  return DUTCH_TIME.format(ms);
}

/** The account bar and beheer's own navigation, above a page's content. */
export function Beheer({ account, children }: { account: Account; children: ReactNode }) {
  return (
    <>
      <nav aria-label="Beheer" className="beheer-bar">
        <ul>
          <li>
            <a href="/beheer">Overzicht</a>
          </li>
          {account.admin && (
            <li>
              <a href="/beheer/logboek">Logboek</a>
            </li>
          )}
        </ul>
        <form method="post" action="/beheer/uitloggen">
          <Token value={account.csrfToken} />
          <span>
            {account.email} ({account.role})
          </span>{' '}
          <button type="submit">Uitloggen</button>
        </form>
      </nav>
      {children}
    </>
  );
}

/** A form's problem, announced: the one message of a refused login or password. */
export function Problem({ message }: { message: string | undefined }) {
  if (message === undefined) return null;
  return (
    <div role="alert" className="error-summary" tabIndex={-1}>
      <p>{message}</p>
    </div>
  );
}
