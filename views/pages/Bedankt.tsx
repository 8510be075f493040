import { BackToStart } from '../BackToStart.js';

/** The neutral thank-you page a filled honeypot is sent to (docs/forms.md §7): nothing stored, nothing told. */
export function Bedankt() {
  return (
    <>
      <h1>Bedankt voor je aanmelding</h1>
      <p>We hebben je aanmelding ontvangen.</p>
      <BackToStart />
    </>
  );
}
