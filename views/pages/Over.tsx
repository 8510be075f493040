/** "Over deze site" (docs/pages.md §1): static text. */
export function Over() {
  return (
    <>
      <h1>Over deze site</h1>
      <p>
        Eiland is gemaakt voor mensen die snel iets willen regelen, ook op een oude telefoon of een trage verbinding. Elke
        pagina komt kant-en-klaar van de server. Alleen waar je iets invult, zoals het aanmeldformulier, laadt de site een
        beetje JavaScript om je meteen te laten zien of je invoer klopt.
      </p>
      <h2>Zonder JavaScript</h2>
      <p>
        Heb je JavaScript uitgezet? Dan werkt alles gewoon. Je formulier wordt dan op de server gecontroleerd en je krijgt
        dezelfde meldingen te zien.
      </p>
      <h2>Toegankelijkheid</h2>
      <p>
        Je kunt de hele site met het toetsenbord bedienen. Met de link &ldquo;Naar de inhoud&rdquo; sla je het menu over.
        De site volgt de lichte of donkere weergave van je apparaat.
      </p>
    </>
  );
}
