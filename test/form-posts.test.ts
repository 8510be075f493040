/**
 * Every form's post on the server (docs/forms.md §4, §7, §8), from its definition and its kit
 * alone: for each form of the test app (test/fixtures/forms.ts), every rule case of its kit posted
 * as a browser without JavaScript posts it is answered 422 with the case's message at its field,
 * or stored and sent on (303) when the case is valid; a valid post goes where the form's pages say
 * (its `next`, else its thank-you page), logged `<name>_received` with the form's name, and its
 * repeat is answered alike and logged as a repeat; a filled honeypot goes to the thank-you page
 * and stores nothing.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { HONEYPOT_FIELD } from '../protocol/forms.js';
import type { FormDefinition } from '../src/forms/define.js';
import { FORMS } from './fixtures/forms.js';
import { useApp } from './helpers/app.js';
import { fieldErrors, FORM_KITS, formDestination, openForm, postForm } from './helpers/form.js';

const app = useApp();

/** The `<name>_received` lines of the form so far. */
const received = (form: FormDefinition) => app.logs().filter((line) => line.event === `${form.name}_received`);

describe("every form's post (docs/forms.md §8)", () => {
  for (const form of FORMS) {
    const kit = FORM_KITS[form.name]!;

    it(`${form.name}: each of its ${kit.cases.length} rule cases answered with its message, or stored`, async () => {
      for (const [field, value, message] of kit.cases) {
        const res = await postForm(app, form.path, { ...kit.valid, [field]: value });
        const what = `${field} = ${JSON.stringify(value)}`;
        if (message === null) {
          assert.equal(res.status, 303, what);
          assert.match(String(res.headers.location), formDestination(form), what);
        } else {
          assert.equal(res.status, 422, what);
          assert.equal(fieldErrors(res.body)[field], message, what);
        }
      }
    });

    it(`${form.name}: a valid post goes on as its pages say, logged once as received and its repeat as a repeat`, async () => {
      const before = received(form).length;
      const session = await openForm(app, form.path);
      const first = await postForm(app, form.path, kit.valid, session);
      const again = await postForm(app, form.path, kit.valid, session);
      assert.equal(first.status, 303);
      assert.match(String(first.headers.location), formDestination(form));
      assert.deepEqual([again.status, again.headers.location], [303, first.headers.location], 'the repeat is answered like the first');
      const lines = received(form).slice(before);
      assert.deepEqual(
        lines.map(({ form: name, repeated }) => ({ name, repeated })),
        [
          { name: form.name, repeated: false },
          { name: form.name, repeated: true },
        ],
      );
      // Nothing the person typed: only what the form allows (`pages.logged`, a category) besides its name and `repeated`.
      const allowed = Object.values(form.pages.logged?.(kit.valid as never) ?? {});
      for (const value of Object.values(kit.valid).flat()) {
        if (typeof value === 'string' && value.length > 3 && !allowed.includes(value)) assert.ok(!JSON.stringify(lines).includes(value), `${value} is not logged`);
      }
    });

    it(`${form.name}: a filled honeypot goes to the thank-you page and stores nothing`, async () => {
      const before = received(form).length;
      const res = await postForm(app, form.path, { ...kit.valid, [HONEYPOT_FIELD]: 'http://spam.example' });
      assert.deepEqual([res.status, res.headers.location], [303, form.pages.thankYou.path]);
      assert.equal(received(form).length, before);
    });
  }
});
