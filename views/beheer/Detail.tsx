/**
 * One submission (docs/beheer.md §4–§6): every kept field with its label, when it came, the state of
 * its e-mail, and what an account may do with it.
 */
import { Beheer, Token, type Account } from './parts.js';

/** Props of {@link Detail}. */
export interface DetailProps {
  account: Account;
  form: { name: string; title: string; answerable: boolean };
  id: string;
  fields: ReadonlyArray<{ label: string; value: string }>;
  at: string;
  /** Its e-mails' states in Dutch, oldest first. */
  mail: readonly string[];
  /** Who marked it answered and when, or undefined. */
  answered?: string;
}

/** The submission page. */
export function Detail({ account, form, id, fields, at, mail, answered }: DetailProps) {
  const base = `/beheer/${form.name}/${id}`;
  return (
    <Beheer account={account}>
      <h1>{form.title}: inzending</h1>
      <dl>
        {fields.map((field) => (
          <div key={field.label}>
            <dt>{field.label}</dt>
            <dd>{field.value === '' ? '(leeg)' : field.value}</dd>
          </div>
        ))}
        <div>
          <dt>Ontvangen</dt>
          <dd>{at}</dd>
        </div>
        <div>
          <dt>E-mail</dt>
          <dd>{mail.length === 0 ? 'geen' : mail.join(', ')}</dd>
        </div>
        {form.answerable && (
          <div>
            <dt>Beantwoord</dt>
            <dd>{answered ?? 'nee'}</dd>
          </div>
        )}
      </dl>
      {account.admin && (
        <>
          {form.answerable && answered === undefined && (
            <form method="post" action={`${base}/beantwoord`}>
              <Token value={account.csrfToken} />
              <button type="submit">Markeer als beantwoord</button>
            </form>
          )}
          <p>
            <a href={`${base}/gegevens`} download>
              Download de gegevens van deze persoon (JSON)
            </a>
          </p>
          <p>
            <a href={`${base}/verwijderen`}>Verwijder deze inzending</a>
          </p>
        </>
      )}
      <p>
        <a href={`/beheer/${form.name}`}>Terug naar de lijst</a>
      </p>
    </Beheer>
  );
}
