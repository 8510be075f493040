/**
 * The outbox's e-mails (docs/operations.md §12), in Dutch: after a registration, the link to its
 * confirmation page; after a contact message, a short receipt. Each is written once as paragraphs
 * and rendered twice, as plain text and as HTML (React escapes the name). Nothing personal but
 * the first name: the link is the capability the person already holds. Whoever typed the address
 * chose the name, so the greeting carries only a short word of letters from it (docs/operations.md
 * §12): nothing that reads as a link or a message to someone else's inbox.
 */
import { renderToStaticMarkup } from 'react-dom/server';
import type { OutboxMessage } from '../storage/types.js';

/** A paragraph: text, or a link shown as its own address. */
type Paragraph = string | { href: string };

/** An e-mail ready for the transport, without its addresses. */
export interface ComposedMail {
  subject: string;
  text: string;
  html: string;
}

const SIGNATURE = 'Groet,\nEiland';

/** A first name the greeting may carry: letters (with their accents), `'` and `-`, at most 20. */
const GREETABLE = /^[\p{L}\p{M}'’-]{1,20}$/u;

/**
 * The greeting of a message (docs/operations.md §12): "Hallo {first name}," with the name's first
 * word where that is a short word of letters, else "Hallo,".
 * @param naam the name as stored
 * @example greeting('Anna de Vries') // 'Hallo Anna,'; greeting('Win! zie evil.example/prijs') // 'Hallo,'
 */
export function greeting(naam: string): string {
  const first = naam.trim().split(/\s+/)[0] ?? '';
  return GREETABLE.test(first) ? `Hallo ${first},` : 'Hallo,';
}

/** The subject and paragraphs of a message. */
function contentOf(message: OutboxMessage, origin: string): { subject: string; paragraphs: Paragraph[] } {
  if (message.kind === 'registration') {
    return {
      subject: 'Je aanmelding bij Eiland',
      paragraphs: [
        greeting(message.naam),
        'Bedankt voor je aanmelding bij Eiland. Op je bevestigingspagina zie je wat we van je hebben opgeslagen. Daar kun je je gegevens ook downloaden of je aanmelding verwijderen:',
        { href: `${origin}/aanmeldingen/${message.about}` },
        'Bewaar deze e-mail: wie de link heeft, kan je aanmelding zien.',
        SIGNATURE,
      ],
    };
  }
  return {
    subject: 'We hebben je bericht ontvangen',
    paragraphs: [greeting(message.naam), 'Bedankt voor je bericht aan Eiland. We hebben het ontvangen en antwoorden op dit e-mailadres.', SIGNATURE],
  };
}

/**
 * Composes a message of the outbox.
 * @param message the leased message (its kind, name and what it is about)
 * @param origin the site's origin for links, e.g. `https://eiland.example` (no trailing slash)
 * @returns subject, plain text and an HTML document (`lang="nl"`)
 */
export function composeMail(message: OutboxMessage, origin: string): ComposedMail {
  const { subject, paragraphs } = contentOf(message, origin);
  const text = paragraphs.map((p) => (typeof p === 'string' ? p : p.href)).join('\n\n') + '\n';
  const body = renderToStaticMarkup(
    <html lang="nl">
      <head>
        <meta charSet="utf-8" />
        <title>{subject}</title>
      </head>
      <body>
        {paragraphs.map((p, i) => (
          <p key={i}>{typeof p === 'string' ? p.split('\n').flatMap((line, j) => (j === 0 ? [line] : [<br key={j} />, line])) : <a href={p.href}>{p.href}</a>}</p>
        ))}
      </body>
    </html>,
  );
  return { subject, text, html: `<!DOCTYPE html>${body}` };
}
