import { BackToStart } from '../BackToStart.js';

/** The page after a contact message (docs/forms.md §9): it thanks, and shows nothing of what was sent. */
export function ContactBedankt() {
  return (
    <>
      <h1>Bedankt voor je bericht</h1>
      <p>We hebben je bericht ontvangen en antwoorden zo snel mogelijk, meestal binnen twee werkdagen.</p>
      <BackToStart />
    </>
  );
}
