/**
 * The contact form's test kit (docs/forms.md §9): a valid post, every rule's case with its exact
 * message, and edges for the parity of server and browser. Found by the form's name
 * (src/forms/index.ts) through `FORM_KITS` (test/helpers/form.ts).
 */
import { HOSTILE_ADDRESSES, PLAIN_ADDRESSES } from '../fixtures/mailboxes.js';
import type { Fields, FormKit, RuleCase } from '../helpers/form.js';

/** A complete, valid contact message. */
export const CONTACT_VALID: Fields = {
  naam: 'Anna de Vries',
  email: 'anna@voorbeeld.nl',
  onderwerp: 'vraag',
  bericht: 'Hoe laat begint de rondleiding op zaterdag?',
};

/** One case per rule of the contact form (docs/forms.md §9), boundaries included. */
export const CONTACT_RULE_CASES: readonly RuleCase[] = [
  ['naam', '', 'Dit veld is verplicht'],
  ['naam', '  ', 'Dit veld is verplicht'],
  ['naam', 'A', 'at least 2 characters'],
  ['naam', 'Al', null],
  ['naam', 'x'.repeat(60), null],
  ['naam', 'x'.repeat(61), 'at most 60 characters'],
  ['email', '', 'Dit veld is verplicht'],
  ['email', 'anna', 'Dit is geen geldig email adress'],
  ['email', ' anna@voorbeeld.nl ', null],
  ['onderwerp', '', 'Dit veld is verplicht'],
  ['onderwerp', undefined, 'Dit veld is verplicht'],
  ['onderwerp', 'klacht', null],
  ['onderwerp', 'compliment', null],
  ['onderwerp', 'spam', 'Invoer is niet geldig'],
  ['onderwerp', 'Vraag', 'Invoer is niet geldig'],
  ['bericht', '', 'Dit veld is verplicht'],
  ['bericht', '   ', 'Dit veld is verplicht'],
  ['bericht', 'Te kort.', 'at least 10 characters'],
  ['bericht', '  123456789  ', 'at least 10 characters'],
  ['bericht', '1234567890', null],
  ['bericht', 'x'.repeat(2000), null],
  ['bericht', 'x'.repeat(2001), 'at most 2000 characters'],
];

/** The kit of the form `contact`. */
export const kit: FormKit = {
  path: '/contact',
  island: 'ContactForm',
  submit: 'Versturen',
  valid: CONTACT_VALID,
  cases: CONTACT_RULE_CASES,
  wrongFormats: { naam: 'A', email: 'anna', bericht: 'Te kort.' },
  edges: [
    {},
    { naam: '\t\n', email: ' ', onderwerp: ' ', bericht: '\n\n' },
    { ...CONTACT_VALID, naam: '😀', bericht: '😀'.repeat(9) },
    { ...CONTACT_VALID, naam: '😀😀', bericht: '😀'.repeat(10) },
    { ...CONTACT_VALID, naam: 'Ærøskøbing-Ålesund', email: 'jürgen@voorbeeld.de' },
    { ...CONTACT_VALID, naam: 'a'.repeat(5000), email: `${'a'.repeat(300)}@voorbeeld.nl`, bericht: 'b'.repeat(5000) },
    { ...CONTACT_VALID, onderwerp: ['vraag', 'klacht'] },
    { ...CONTACT_VALID, onderwerp: ' vraag' },
    { ...CONTACT_VALID, email: 'a@b' },
    ...[...HOSTILE_ADDRESSES, ...PLAIN_ADDRESSES].map((email) => ({ ...CONTACT_VALID, email })),
    { ...CONTACT_VALID, bericht: 'regel een\nregel twee\n' },
  ],
};
