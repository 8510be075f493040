/**
 * What a form keeps (docs/forms.md §8): the row follows from its declaration and its DTO — the
 * kept fields only, a list as JSON text, an empty optional field as null — and reads back as it
 * went in; a declaration that cannot be kept is refused when the form is declared; every keeping
 * form's table is expired, and every mailing form's message composed, by the parts that name none.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { IsNotEmpty } from 'class-validator';
import { contactForm } from '../src/forms/contact.js';
import { defineForm } from '../src/forms/define.js';
import { letters, retained } from '../src/forms/index.js';
import { records } from '../src/forms/keep.js';
import { registrationForm } from '../src/forms/registration.js';
import { Optional, ToArray } from '../src/forms/rules.js';
import { validateForm } from '../src/forms/validate.js';
import { FORMS } from './fixtures/forms.js';
import { FORM_KITS } from './helpers/form.js';
import { REGISTRATION, tempStorage } from './helpers/temp-storage.js';

class Sample {
  @IsNotEmpty()
  naam!: string;

  @Optional()
  @IsNotEmpty()
  website?: string;

  @ToArray()
  @IsNotEmpty({ each: true })
  tags!: string[];
}

const declare = (keep: Parameters<typeof defineForm<Sample, 'naam' | 'website' | 'tags'>>[0]['keep']) => defineForm({ name: 'proef', path: '/proef', island: 'ProefForm', dto: Sample, pages: { ...contactForm.pages, logged: undefined }, keep });

describe("a form's keeping (docs/forms.md §8)", () => {
  it('stores the kept fields only: a list as JSON text, an empty optional one as null', () => {
    const { keep } = declare({ table: 'proeven', fields: ['naam', 'website', 'tags'] });
    assert.deepEqual(keep.row({ naam: 'Anna', website: '', tags: ['a', 'b'] }), { naam: 'Anna', website: null, tags: '["a","b"]' });
    assert.deepEqual(keep.row({ naam: 'Anna', tags: [] }), { naam: 'Anna', website: null, tags: '[]' });
    assert.deepEqual(defineForm({ name: 'proef', path: '/proef', island: 'ProefForm', dto: Sample, pages: { ...contactForm.pages, logged: undefined }, keep: { table: 'proeven', fields: ['naam'] } }).keep.row({ naam: 'Anna' }), { naam: 'Anna' });
    assert.deepEqual(keep.read({ id: 'x', createdAt: '2026-11-27T10:00:00.000Z', naam: 'Anna', website: null, tags: '["a","b"]' }), {
      id: 'x',
      createdAt: '2026-11-27T10:00:00.000Z',
      naam: 'Anna',
      website: null,
      tags: ['a', 'b'],
    });
    assert.deepEqual(keep.kept, { table: 'proeven', kind: 'proef', mailed: false, notifies: false, searched: ['naam'] });
  });

  it('refuses a mailed form without an email field, and a table that is not a plain name', () => {
    assert.throws(() => declare({ table: 'proeven', fields: ['naam'], mail: () => ({ subject: 'x', paragraphs: [] }) }), /it sends an e-mail, so it keeps an "email" field/);
    assert.throws(() => declare({ table: 'proeven; DROP TABLE x', fields: ['naam'] }), /its table is lower-case letters/);
  });

  it("reads back what was stored, in the form's records, and erases it with its e-mail", async () => {
    const temp = await tempStorage();
    try {
      const registrations = records(temp.storage, registrationForm.keep);
      const { id } = await registrations.save('0b0e6e1c-1111-4111-8111-000000000001', { ...REGISTRATION, interesses: ['sport', 'natuur'] });
      const found = await registrations.find(id);
      assert.deepEqual({ ...found, createdAt: undefined }, { ...REGISTRATION, interesses: ['sport', 'natuur'], id, createdAt: undefined });
      assert.match(found!.createdAt, /^\d{4}-\d\d-\d\dT/);
      assert.equal((await temp.storage.leaseMail(10, 60_000)).length, 1, 'its e-mail in the outbox');
      assert.equal(await registrations.erase(id), true);
      assert.equal(await registrations.find(id), undefined);
      assert.deepEqual(await temp.storage.leaseMail(10, 0), [], 'its e-mail gone with it');
    } finally {
      await temp.storage.close();
      await temp.remove();
    }
  });

  it('expires every keeping form, and composes the letter of every mailing one, from the form index', async () => {
    assert.deepEqual(
      retained(30, FORMS).map(({ table }) => table),
      FORMS.flatMap((form) => (form.keep ? [form.keep.table] : [])),
    );
    const temp = await tempStorage();
    try {
      const letter = letters(temp.storage, 'https://eiland.example', FORMS);
      for (const form of FORMS.filter((f) => f.keep?.mail)) {
        // Each form's valid post from its kit, as the form's validation hands it on.
        const valid = FORM_KITS[form.name]!.valid;
        const checked = await validateForm(form.dto, valid);
        assert.ok(checked.ok, form.name);
        const { id } = await records(temp.storage, form.keep!).save(`0b0e6e1c-2222-4222-8222-${String(FORMS.indexOf(form)).padStart(12, '0')}`, checked.value as never);
        const written = await letter({ id: 'b1e7a0f2-0000-4000-8000-000000000001', kind: form.name, about: id, attempts: 1, lease: 'x' });
        assert.equal(written?.to, valid.email, form.name);
        assert.match(written!.paragraphs[0] as string, /^Hallo Anna,$/, form.name);
      }
      await assert.rejects(letter({ id: 'x', kind: 'onbekend', about: 'x', attempts: 1, lease: 'x' }), /No form sends e-mails of kind "onbekend"/);
    } finally {
      await temp.storage.close();
      await temp.remove();
    }
  });
});
