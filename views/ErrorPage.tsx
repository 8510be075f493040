/**
 * The generic error page (docs/errors.md §1–§2): the status in an `<h1>`,
 * the English title in an `<h2 lang="en">`, a Dutch way back.
 */
import { errorTitle } from '../protocol/errors.js';
import { BackToStart } from './BackToStart.js';

/** Renders the content of `<main>` for an error status (400–599). */
export function ErrorPage({ status }: { status: number }) {
  return (
    <div className="error-page">
      <h1>{status}</h1>
      <h2 lang="en">{errorTitle(status)}</h2>
      <BackToStart />
    </div>
  );
}
