/**
 * Asking once more before a submission is erased (docs/beheer.md §6).
 */
import { Beheer, Token, type Account } from './parts.js';

/** The value of the field that confirms the erasure. */
export const ERASE_CONFIRMED = 'ja';

/** The question and the one button that erases. */
export function Erase({ account, form, id, name }: { account: Account; form: { name: string; title: string }; id: string; name: string }) {
  const base = `/beheer/${form.name}/${id}`;
  return (
    <Beheer account={account}>
      <h1>Inzending verwijderen</h1>
      <p>
        Weet je zeker dat je de inzending van {name} ({form.title}) wilt verwijderen? Alles wat is opgegeven en de e-mails erover worden gewist. Dat kan niet ongedaan worden gemaakt.
      </p>
      <form method="post" action={`${base}/verwijderen`}>
        <Token value={account.csrfToken} />
        <input type="hidden" name="bevestigd" value={ERASE_CONFIRMED} />
        <button type="submit">Ja, verwijder deze inzending</button>
      </form>
      <p>
        <a href={base}>Nee, terug naar de inzending</a>
      </p>
    </Beheer>
  );
}
