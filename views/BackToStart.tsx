/** The way back an error page, a thank-you and a confirmation offer (docs/pages.md §7, docs/errors.md §2). */
export function BackToStart() {
  return (
    <p>
      <a href="/">Terug naar de startpagina</a>
    </p>
  );
}
