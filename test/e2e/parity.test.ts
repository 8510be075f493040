/**
 * Validation parity (docs/forms.md §5, §8): for every form of src/forms/index.ts, the rule list
 * its island's chunk carries, evaluated in Chromium, gives the same messages as the server's
 * class-validator DTO, input for input, with the browser in the server's time zone and in one far
 * from it. A new form is covered by its kit, test/forms/<name>.ts
 * (loaded by test/helpers/form.ts `FORM_KITS`); without one every suite that uses the kits fails.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { browserRules } from '../../src/forms/browser-rules.js';
import { FORMS } from '../fixtures/forms.js';
import { validateForm } from '../../src/forms/validate.js';
import { browserSuite, withPage } from '../helpers/browser-suite.js';
import { FORM_KITS, type Fields } from '../helpers/form.js';

const suite = browserSuite();

describe('validation parity: server (class-validator) and island (validator.js) agree', () => {
  // The browser's clock in the server's time zone, and in one 11 to 14 hours away from it: a rule
  // that read the browser's clock (a date rule's "today") would judge a value differently there.
  const serverOffset = new Date().getTimezoneOffset();
  const far = serverOffset <= 0 ? 'Pacific/Pago_Pago' : 'Pacific/Kiritimati';
  for (const form of FORMS) {
    for (const timeZone of [undefined, far]) {
      it(`${form.name}: identical messages per field, input for input, the browser ${timeZone ? `in ${timeZone}` : 'in the server’s time zone'}`, async () => {
        const kit = FORM_KITS[form.name]!;
        /** Inputs: one per rule case, then edge cases across fields. */
        const inputs: Fields[] = [...kit.cases.map(([field, value]) => ({ ...kit.valid, [field]: value })), ...kit.edges];
        assert.ok(inputs.length >= 30);
        await withPage(suite.chromium, {}, async ({ page }) => {
          if (timeZone) await page.emulateTimezone(timeZone);
          await page.goto(`${suite.app.url}/over`);
          const offset = Number(await page.evaluate('new Date().getTimezoneOffset()'));
          assert.equal(Math.abs(offset - serverOffset) >= 11 * 60, timeZone !== undefined, `the browser's offset ${offset} min against the server's ${serverOffset}`);
          const island = (await suite.manifest()).islands[form.island]!.file;
          // The entry's own rule list, registered by the build for the island: the one it validates
          // with (copied first: validator.js fills option defaults into the objects it is given).
          const chunk = JSON.parse(
            String(await page.evaluate(`import(${JSON.stringify(island)}).then((m) => { const rules = JSON.parse(JSON.stringify(m.rules)); return JSON.stringify({ rules, results: ${JSON.stringify(inputs)}.map((v) => m.validateValues(m.rules, v)) }); })`)),
          ) as { rules: unknown; results: Array<Record<string, string>> };
          assert.deepEqual(chunk.rules, browserRules(form.dto), 'the chunk carries the rule list derived from the DTO');
          for (const [i, values] of inputs.entries()) {
            const server = await validateForm(form.dto, values);
            assert.deepEqual(chunk.results[i], server.ok ? {} : server.errors, `input ${i}: ${JSON.stringify(values).slice(0, 200)}`);
          }
        });
      });
    }
  }

  it('each island carries its own form’s rule list and no other', async () => {
    const manifest = await suite.manifest();
    for (const form of FORMS) {
      const own = manifest.islands[form.island]!;
      const others = FORMS.filter((f) => f !== form);
      for (const file of [own.file, ...own.imports]) {
        const text = await (await fetch(suite.app.url + file)).text();
        for (const other of others) {
          // Each form's rule list names its own fields; a field only another form has must not appear.
          const foreign = other.fields.filter((field) => !form.fields.includes(field));
          for (const field of foreign) assert.doesNotMatch(text, new RegExp(`\\b${field}:\\{`), `${file} (${form.island}) carries ${other.name}'s field ${field}`);
        }
      }
    }
  });
});
