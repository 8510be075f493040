/**
 * "Privacyverklaring" (docs/pages.md §1): what is stored, why, who sees it (beheer and its audit
 * log, docs/beheer.md §7), for how long (the configured retention, docs/operations.md §11), the
 * e-mail we send (docs/operations.md §12), and how a person sees, takes and erases their data.
 */
export function Privacy({ retentionDays }: { retentionDays: number }) {
  return (
    <>
      <h1>Privacyverklaring</h1>
      <h2>Wat we bewaren</h2>
      <p>
        Als je je aanmeldt, bewaren we wat je invult: je naam, e-mailadres, gebruikersnaam, landcode, interesses, het
        aantal personen en, als je die opgeeft, je website en referentiecode.
      </p>
      <p>Als je ons een bericht stuurt, bewaren we je naam, je e-mailadres, het onderwerp en je bericht.</p>
      <h2>Waarom</h2>
      <p>We gebruiken deze gegevens alleen om je aanmelding te verwerken. We verkopen ze niet en delen ze met niemand.</p>
      <p>
        Na je aanmelding sturen we je één e-mail met de link naar je bevestigingspagina. Na een bericht sturen we je een
        korte ontvangstbevestiging. Verder mailen we je niet, en in die e-mails staat van jou alleen je voornaam.
      </p>
      <p>
        Eén e-mailadres krijgt van ons hoogstens drie e-mails in 24 uur, hoe vaak iemand het ook invult. Daarvoor houden we
        bij elke e-mail 24 uur een code van het adres bij, niet het adres zelf, ook als je je aanmelding in die tijd
        verwijdert.
      </p>
      <h2>Wie je gegevens ziet</h2>
      <p>
        Alleen medewerkers van Eiland met een eigen account zien je aanmelding of bericht, om ze te beantwoorden of op
        jouw verzoek te verwijderen. Een bericht via het contactformulier sturen we ook per e-mail door naar onze
        medewerkers. Wie wat heeft bekeken, gedownload of verwijderd, leggen we een jaar vast, met alleen codes en geen
        inhoud van je aanmelding of bericht.
      </p>
      <h2>Hoe lang</h2>
      <p>
        We bewaren je aanmelding en je berichten aan ons {retentionDays === 1 ? '1 dag' : `${retentionDays} dagen`} na het
        versturen. Daarna worden ze vanzelf verwijderd, elk uur wat ouder is, met onze kopieën van de e-mails die we je
        erover stuurden. Dat een e-mail verstuurd is (zonder de tekst) houden we daarna nog één dag bij.
      </p>
      <p>
        Om te voorkomen dat iemand onze formulieren overspoelt, tellen we per IP-adres hoe vaak er een formulier is
        verstuurd. Die telling wissen we binnen een uur nadat ze is afgelopen.
      </p>
      <h2>Cookies</h2>
      <p>
        We zetten alleen cookies die nodig zijn om formulieren veilig te versturen. We gebruiken geen cookies om je te
        volgen.
      </p>
      <h2>Inzien, meenemen en verwijderen</h2>
      <p>
        Op je bevestigingspagina, de pagina die je na je aanmelding zag en waarvan de link in onze e-mail staat, staat
        alles wat we van je bewaren. Daar kun je je
        gegevens downloaden als bestand, en je aanmelding zelf verwijderen: we vragen dan nog één keer of je het zeker
        weet, en wissen alles wat je bij je aanmelding hebt opgegeven, ook uit onze kopieën van de e-mail die we je
        stuurden.
      </p>
      <p>
        Ben je die pagina en de e-mail kwijt? Stuur ons dan een bericht via het <a href="/contact">contactformulier</a> met het
        e-mailadres waarmee je je hebt aangemeld.
      </p>
    </>
  );
}
