/**
 * The test form's kit (test/fixtures/appointment.ts): a valid post, every rule's case with its
 * exact message, and edges for the parity of server and browser. Found by the form's name
 * (test/fixtures/forms.ts) through `FORM_KITS` (test/helpers/form.ts), as a site form's kit is.
 */
import { HOSTILE_ADDRESSES } from '../fixtures/mailboxes.js';
import type { Fields, FormKit, RuleCase } from '../helpers/form.js';

/** A complete, valid appointment. */
const VALID: Fields = {
  naam: 'Anna de Vries',
  email: 'anna@voorbeeld.nl',
  telefoon: '+31 6 1234 5678',
  soort: 'rondleiding',
  datum: '2027-03-15',
  tijd: '14:30',
};

/** One case per rule, boundaries included. */
const CASES: readonly RuleCase[] = [
  ['naam', '', 'Dit veld is verplicht'],
  ['naam', ' ', 'Dit veld is verplicht'],
  ['naam', 'A', 'at least 2 characters'],
  ['naam', 'Al', null],
  ['naam', 'x'.repeat(60), null],
  ['naam', 'x'.repeat(61), 'at most 60 characters'],
  ['email', '', 'Dit veld is verplicht'],
  ['email', 'anna', 'Dit is geen geldig email adress'],
  ['email', '"a b"@voorbeeld.nl', 'Dit is geen geldig email adress'],
  ['telefoon', '', 'Dit veld is verplicht'],
  ['telefoon', '12345', 'Dit is geen geldig telefoonnummer'],
  ['telefoon', '0612345678', null],
  ['telefoon', '06-1234567a', 'Dit is geen geldig telefoonnummer'],
  ['telefoon', '+'.concat('1'.repeat(16)), null],
  ['telefoon', '+'.concat('1'.repeat(17)), 'Dit is geen geldig telefoonnummer'],
  ['soort', undefined, 'Dit veld is verplicht'],
  ['soort', '', 'Dit veld is verplicht'],
  ['soort', 'kennismaking', null],
  ['soort', 'vergadering', 'Invoer is niet geldig'],
  ['datum', '', 'Dit veld is verplicht'],
  ['datum', '15-03-2027', 'Dit is geen geldige datum'],
  ['datum', '2027-13-01', 'Dit is geen geldige datum'],
  ['datum', '2028-02-29', null],
  ['datum', '2027-03-13', 'Kies een werkdag: maandag tot en met vrijdag'],
  ['datum', '2027-03-14', 'Kies een werkdag: maandag tot en met vrijdag'],
  ['datum', '2027-03-19', null],
  ['tijd', '', 'Dit veld is verplicht'],
  ['tijd', '24:00', 'Dit is geen geldige tijd'],
  ['tijd', '9:30', 'Dit is geen geldige tijd'],
  ['tijd', '09:30', null],
  ['tijd', '23:59', null],
];

/** The kit of the form `appointment`. */
export const kit: FormKit = {
  path: '/proef/afspraak',
  island: 'AfspraakForm',
  submit: 'Afspraak maken',
  valid: VALID,
  cases: CASES,
  wrongFormats: { naam: 'A', email: 'anna', telefoon: '12345' },
  edges: [
    {},
    { naam: '\t', email: ' ', telefoon: ' ', soort: ' ', datum: ' ', tijd: ' ' },
    { ...VALID, naam: '😀😀', telefoon: ' 0612345678 ' },
    { ...VALID, soort: ['kennismaking', 'rondleiding'] },
    { ...VALID, datum: '2027-02-30', tijd: '12:60' },
    { ...VALID, naam: 'a'.repeat(5000), telefoon: '1'.repeat(5000) },
    ...HOSTILE_ADDRESSES.slice(0, 6).map((email) => ({ ...VALID, email })),
  ],
};
