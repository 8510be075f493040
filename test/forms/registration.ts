/**
 * The registration form's test kit (docs/forms.md §1–§2): a valid post, every rule's case with its
 * exact message, and edges for the parity of server and browser. Found by the form's name
 * (src/forms/index.ts) through `FORM_KITS` (test/helpers/form.ts).
 */
import { HOSTILE_ADDRESSES, PLAIN_ADDRESSES } from '../fixtures/mailboxes.js';
import type { Fields, FormKit, RuleCase } from '../helpers/form.js';

/** A complete, valid registration. */
export const VALID: Fields = {
  naam: 'Anna de Vries',
  email: 'anna@voorbeeld.nl',
  website: 'https://anna.voorbeeld.nl',
  referentie: '',
  gebruikersnaam: 'anna_1',
  landcode: 'NL',
  interesses: ['sport', 'natuur'],
  personen: '2',
  akkoord: 'ja',
};

/**
 * A valid registration as the browser suites type it (with `fillForm`): no website or reference,
 * one interest; its confirmation page thanks "Sanne Bakker" (docs/forms.md §2).
 */
export const SANNE: Fields = {
  naam: 'Sanne Bakker',
  email: 'sanne@voorbeeld.nl',
  gebruikersnaam: 'sanne_b',
  landcode: 'NL',
  interesses: ['sport'],
  personen: '2',
  akkoord: 'ja',
};

/** The message of every field after an empty submit (docs/forms.md §1–§2). */
export const EMPTY_SUBMIT_ERRORS: Readonly<Record<string, string>> = {
  naam: 'Dit veld is verplicht',
  email: 'Dit veld is verplicht',
  gebruikersnaam: 'Dit veld is verplicht',
  landcode: 'Dit veld is verplicht',
  interesses: 'must contain at least 1 value(s)',
  personen: 'Dit veld is verplicht',
  akkoord: 'Dit veld is verplicht',
};

/** A valid UUID that no registration has. */
export const UNKNOWN_UUID = '3f2b8c1e-9a4d-4e6f-8b7a-1c2d3e4f5a6b';

/**
 * One case per rule of docs/forms.md §2, boundaries included: a field, the value
 * it is given in an otherwise valid form, and its exact message (null: valid).
 */
export const RULE_CASES: readonly RuleCase[] = [
  ['naam', '', 'Dit veld is verplicht'],
  ['naam', '   ', 'Dit veld is verplicht'],
  ['naam', 'A', 'at least 2 characters'],
  ['naam', '  A  ', 'at least 2 characters'],
  ['naam', 'Al', null],
  ['naam', 'Zoë Ümit-Çelik', null],
  ['naam', 'x'.repeat(60), null],
  ['naam', 'x'.repeat(61), 'at most 60 characters'],
  ['naam', ` ${'x'.repeat(60)} `, null],
  ['email', '', 'Dit veld is verplicht'],
  ['email', 'anna', 'Dit is geen geldig email adress'],
  ['email', 'anna@', 'Dit is geen geldig email adress'],
  ['email', '  anna@voorbeeld.nl  ', null],
  ['website', '', null],
  ['website', 'voorbeeld.nl', 'Dit is geen geldige URL'],
  ['website', 'ftp://voorbeeld.nl', 'Dit is geen geldige URL'],
  ['website', 'javascript:alert(1)', 'Dit is geen geldige URL'],
  ['website', 'http://voorbeeld.nl/pad?x=1', null],
  ['referentie', '', null],
  ['referentie', 'abc', 'Dit is geen geldige UUID'],
  ['referentie', UNKNOWN_UUID, null],
  ['gebruikersnaam', '', 'Dit veld is verplicht'],
  ['gebruikersnaam', ' anna', 'Dit is geen geldige waarde'],
  ['gebruikersnaam', 'ANNA ', 'Dit is geen geldige waarde'],
  ['gebruikersnaam', 'Anna', 'the value must be lowercase'],
  ['gebruikersnaam', 'an', 'at least 3 characters'],
  ['gebruikersnaam', 'ann', null],
  ['gebruikersnaam', 'a'.repeat(20), null],
  ['gebruikersnaam', 'a'.repeat(21), 'at most 20 characters'],
  ['gebruikersnaam', 'an-na', 'must match the given pattern'],
  ['gebruikersnaam', 'anné', 'must match the given pattern'],
  ['landcode', '', 'Dit veld is verplicht'],
  ['landcode', 'N', 'must be exactly 2 characters'],
  ['landcode', 'NLD', 'must be exactly 2 characters'],
  ['landcode', 'nl', 'the value must be upper case'],
  ['landcode', 'BE', null],
  ['interesses', undefined, 'must contain at least 1 value(s)'],
  ['interesses', ['sport', 'natuur', 'muziek', 'cultuur'], 'must contain at most 3 value(s)'],
  ['interesses', ['sport', 'golf'], 'Invoer is niet geldig'],
  ['interesses', 'techniek', null],
  ['interesses', ['techniek', 'cultuur', 'muziek'], null],
  ['personen', '', 'Dit veld is verplicht'],
  ['personen', 'abc', 'Invoer is niet geldig'],
  ['personen', '2.5', 'Invoer is niet geldig'],
  ['personen', '0', 'Invoer is niet geldig'],
  ['personen', '11', 'Invoer is niet geldig'],
  ['personen', '1', null],
  ['personen', '10', null],
  ['akkoord', undefined, 'Dit veld is verplicht'],
  ['akkoord', 'nee', 'Invoer is niet geldig'],
];

/** The kit of the form `registration`. */
export const kit: FormKit = {
  path: '/aanmelden',
  island: 'RegistrationForm',
  submit: 'Aanmelden',
  valid: VALID,
  cases: RULE_CASES,
  wrongFormats: { naam: 'A', email: 'anna', website: 'voorbeeld.nl', referentie: 'abc', gebruikersnaam: 'Anna', landcode: 'nl', personen: '0' },
  edges: [
    {},
    { naam: '\t\n', email: ' ', gebruikersnaam: ' ', landcode: ' ', personen: ' ', akkoord: '' },
    { ...VALID, naam: '😀', gebruikersnaam: '😀😀😀', landcode: '😀' },
    { ...VALID, naam: '😀😀', landcode: 'ÉÉ' },
    { ...VALID, naam: 'Ærøskøbing-Ålesund', email: 'jürgen@voorbeeld.de', gebruikersnaam: 'jürgen' },
    { ...VALID, naam: 'a'.repeat(5000), email: `${'a'.repeat(300)}@voorbeeld.nl`, website: `https://${'a'.repeat(3000)}.nl` },
    { ...VALID, gebruikersnaam: 'a'.repeat(2), landcode: 'N' },
    { ...VALID, gebruikersnaam: 'ANNA', landcode: 'Nl' },
    { ...VALID, gebruikersnaam: '_'.repeat(3), personen: '+3' },
    { ...VALID, personen: '-1' },
    { ...VALID, personen: '1e1' },
    { ...VALID, personen: '0x5' },
    { ...VALID, personen: ' 5 ' },
    { ...VALID, personen: '9999999999999999' },
    { ...VALID, website: 'http://localhost' },
    { ...VALID, website: 'https://voorbeeld.nl:99999' },
    { ...VALID, website: 'HTTPS://VOORBEELD.NL' },
    { ...VALID, referentie: '3F2B8C1E-9A4D-4E6F-8B7A-1C2D3E4F5A6B' },
    { ...VALID, referentie: ' 3f2b8c1e-9a4d-4e6f-8b7a-1c2d3e4f5a6b' },
    { ...VALID, email: 'a@b' },
    ...[...HOSTILE_ADDRESSES, ...PLAIN_ADDRESSES].map((email) => ({ ...VALID, email })),
    { ...VALID, email: 'anna@voorbeeld..nl' },
    { ...VALID, email: '"anna de vries"@voorbeeld.nl' },
    { ...VALID, interesses: ['sport', 'sport'] },
    { ...VALID, interesses: ['sport', 'natuur', 'muziek', 'golf'] },
    { ...VALID, interesses: [''] },
    { ...VALID, akkoord: 'JA' },
    { ...VALID, akkoord: ['ja', 'ja'] },
  ],
};
