/**
 * Beheer's login (docs/beheer.md §2): e-mail address and password, a plain form that works
 * without JavaScript; a refused login shows one message, the same whatever was wrong.
 */
import { CSRF_FIELD } from '../../protocol/forms.js';
import { Problem } from './parts.js';

/** Props of {@link Login}. */
export interface LoginProps {
  csrfToken: string;
  /** The page to return to, when one was asked for. */
  back?: string;
  /** The address typed, shown again after a refusal. */
  email?: string;
  problem?: string;
  /** A notice above the form, e.g. that a password was set. */
  notice?: string;
}

/** The login form. */
export function Login({ csrfToken, back, email, problem, notice }: LoginProps) {
  return (
    <>
      <Problem message={problem} />
      <h1>Inloggen bij beheer</h1>
      {notice && <p role="status">{notice}</p>}
      <form method="post" action={back ? `/beheer/inloggen?${new URLSearchParams({ terug: back })}` : '/beheer/inloggen'}>
        <input type="hidden" name={CSRF_FIELD} value={csrfToken} />
        <p>
          <label htmlFor="email">E-mailadres</label>
          <br />
          <input id="email" name="email" type="email" autoComplete="username" required defaultValue={email} />
        </p>
        <p>
          <label htmlFor="wachtwoord">Wachtwoord</label>
          <br />
          <input id="wachtwoord" name="wachtwoord" type="password" autoComplete="current-password" required />
        </p>
        <button type="submit">Inloggen</button>
      </form>
    </>
  );
}
