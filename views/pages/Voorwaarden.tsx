/** "Voorwaarden" (docs/pages.md §1): the terms the consent checkbox links to. */
export function Voorwaarden() {
  return (
    <>
      <h1>Voorwaarden</h1>
      <p>Deze voorwaarden gelden als je je aanmeldt via Eiland. Door het vakje aan te vinken ga je ermee akkoord.</p>
      <h2>1. Je aanmelding</h2>
      <p>
        Je vult je gegevens naar waarheid in. Je meldt je alleen aan voor jezelf en voor de personen die met je meekomen.
      </p>
      <h2>2. Wat wij doen</h2>
      <p>
        Wij gebruiken je gegevens alleen om je aanmelding te verwerken en je daarover te berichten. Hoe we met je gegevens
        omgaan, lees je in de <a href="/privacy">privacyverklaring</a>.
      </p>
      <h2>3. Intrekken</h2>
      <p>Je kunt je aanmelding altijd intrekken. Stuur ons een bericht en we verwijderen je gegevens.</p>
      <h2>4. Wijzigingen</h2>
      <p>Als deze voorwaarden veranderen, zetten we de nieuwe tekst op deze pagina.</p>
    </>
  );
}
