/**
 * The outbox's e-mails (docs/operations.md §12), in Dutch: each form that mails writes its message
 * as a subject and paragraphs (its template, beside the form), rendered here twice, as plain text
 * and as HTML (React escapes what the row holds). Whoever typed the address chose the name, so a
 * greeting carries only a short word of letters from it (docs/operations.md §12): nothing that
 * reads as a link or a message to someone else's inbox.
 */
import { renderToStaticMarkup } from 'react-dom/server';

/** A paragraph: text, or a link shown as its own address. */
export type Paragraph = string | { href: string };

/** What a form's template writes: the subject and the paragraphs, the signature included. */
export interface MailContent {
  subject: string;
  paragraphs: Paragraph[];
}

/** A message of the outbox as its form writes it, with its recipient (the row's `email`), or the organisation's mailboxes with the sender to reply to (docs/beheer.md §5). */
export interface Letter extends MailContent {
  to: string | readonly string[];
  replyTo?: string;
}

/** An e-mail ready for the transport, without its addresses. */
export interface ComposedMail {
  subject: string;
  text: string;
  html: string;
}

/** The last paragraph of every message. */
export const SIGNATURE = 'Groet,\nEiland';

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

/**
 * Renders a message of the outbox.
 * @param content what its form's template wrote
 * @returns subject, plain text and an HTML document (`lang="nl"`)
 */
export function composeMail({ subject, paragraphs }: MailContent): ComposedMail {
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
