/**
 * Validation parity (docs/forms.md §5): the island's rule list, evaluated in Chromium, gives the
 * same messages as the server's class-validator DTO, input for input.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { browserRules } from '../../src/forms/browser-rules.js';
import { RegistrationDto } from '../../src/forms/registration.js';
import { validateForm } from '../../src/forms/validate.js';
import { browserSuite, withPage } from '../helpers/browser.js';
import { RULE_CASES, VALID, type Fields } from '../helpers/form.js';

const suite = browserSuite();

/** Inputs: one per rule case, then edge cases across fields. */
const INPUTS: Fields[] = [
  ...RULE_CASES.map(([field, value]) => ({ ...VALID, [field]: value })),
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
  { ...VALID, email: 'anna@voorbeeld..nl' },
  { ...VALID, email: '"anna de vries"@voorbeeld.nl' },
  { ...VALID, interesses: ['sport', 'sport'] },
  { ...VALID, interesses: ['sport', 'natuur', 'muziek', 'golf'] },
  { ...VALID, interesses: [''] },
  { ...VALID, akkoord: 'JA' },
  { ...VALID, akkoord: ['ja', 'ja'] },
];

describe('validation parity: server (class-validator) and island (validator.js) agree', () => {
  it(`gives identical messages per field for ${INPUTS.length} inputs`, async () => {
    assert.ok(INPUTS.length >= 40);
    await withPage(suite.chromium, {}, async ({ page }) => {
    await page.goto(`${suite.app.url}/over`);
    const island = (await suite.manifest()).islands.RegistrationForm!.file;
    // The chunk's own rule list, embedded by the build: the one the island validates with
    // (copied first: validator.js fills option defaults into the objects it is given).
    const chunk = JSON.parse(
      String(await page.evaluate(`import(${JSON.stringify(island)}).then((m) => { const rules = JSON.parse(JSON.stringify(m.RULES)); return JSON.stringify({ rules, results: ${JSON.stringify(INPUTS)}.map((v) => m.validateValues(m.RULES, v)) }); })`)),
    ) as { rules: unknown; results: Array<Record<string, string>> };
    assert.deepEqual(chunk.rules, browserRules(RegistrationDto), 'the chunk embeds the rule list derived from the DTO');
    const browser = chunk.results;
    for (const [i, values] of INPUTS.entries()) {
      const server = await validateForm(RegistrationDto, values);
      assert.deepEqual(browser[i], server.ok ? {} : server.errors, `input ${i}: ${JSON.stringify(values).slice(0, 200)}`);
    }
    });
  });
});
