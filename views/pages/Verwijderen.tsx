/**
 * Asking once more before a registration is erased (docs/pages.md §7): what goes, and the one
 * button that erases it; without JavaScript a plain form.
 */
import { CSRF_FIELD } from '../../protocol/forms.js';
import { BackToStart } from '../BackToStart.js';

/** The value of the field that confirms the erasure. */
export const ERASE_CONFIRMED = 'ja';

/** The `<h1>` of the page an erasure ends on: it speaks to the person, where its title names the event (docs/pages.md §7). */
export const ERASED = 'Je aanmelding is verwijderd';

/** Props of {@link Verwijderen}. */
export interface VerwijderenProps {
  /** The registration's id: the form posts to its own page. */
  id: string;
  naam: string;
  csrfToken: string;
}

/** The question, the button that erases, and the way back. */
export function Verwijderen({ id, naam, csrfToken }: VerwijderenProps) {
  return (
    <>
      <h1>Aanmelding verwijderen</h1>
      <p>Weet je zeker dat je de aanmelding van {naam} wilt verwijderen? We wissen dan alles wat je bij je aanmelding hebt opgegeven. Dat kan niet ongedaan worden gemaakt.</p>
      <form method="post" action={`/aanmeldingen/${id}/verwijderen`}>
        <input type="hidden" name={CSRF_FIELD} value={csrfToken} />
        <input type="hidden" name="bevestigd" value={ERASE_CONFIRMED} />
        <button type="submit">Ja, verwijder mijn aanmelding</button>
      </form>
      <p>
        <a href={`/aanmeldingen/${id}`}>Nee, terug naar mijn aanmelding</a>
      </p>
    </>
  );
}

/** The page an erasure ends on: it is done, and nothing of the registration is shown. */
export function Verwijderd() {
  return (
    <>
      <h1>{ERASED}</h1>
      <p>We hebben je aanmelding en alles wat je daarbij hebt opgegeven gewist.</p>
      <BackToStart />
    </>
  );
}
