/**
 * Setting a password through a one-time link (docs/beheer.md §1): at least 15 and at most 128
 * characters, no other rules.
 */
import { CSRF_FIELD } from '../../protocol/forms.js';
import { Problem } from './parts.js';

/** Props of {@link Password}. */
export interface PasswordProps {
  csrfToken: string;
  /** The link's path: the form posts to it. */
  action: string;
  email: string;
  problem?: string;
}

/** The password form. */
export function Password({ csrfToken, action, email, problem }: PasswordProps) {
  return (
    <>
      <Problem message={problem} />
      <h1>Wachtwoord instellen</h1>
      <p>Kies een wachtwoord voor {email}: minstens 15 en hoogstens 128 tekens. Een zin die je kunt onthouden is goed.</p>
      <form method="post" action={action}>
        <input type="hidden" name={CSRF_FIELD} value={csrfToken} />
        <input type="hidden" name="email" value={email} />
        <p>
          <label htmlFor="wachtwoord">Nieuw wachtwoord</label>
          <br />
          <input id="wachtwoord" name="wachtwoord" type="password" autoComplete="new-password" minLength={15} maxLength={128} required />
        </p>
        <p>
          <label htmlFor="herhaling">Nieuw wachtwoord, nog een keer</label>
          <br />
          <input id="herhaling" name="herhaling" type="password" autoComplete="new-password" required />
        </p>
        <button type="submit">Wachtwoord opslaan</button>
      </form>
    </>
  );
}
