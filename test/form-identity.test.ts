/**
 * One identity per form (docs/forms.md §8): each form's definition names it once (name, path,
 * island, DTO), and the page at its path renders that island with a form whose `action` and
 * `data-form` are the definition's; the route table declares the path with the island, and a
 * definition the table does not match is refused when its route is made.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { contactForm, ContactDto } from '../src/forms/contact.js';
import { defineForm } from '../src/forms/define.js';
import { FORMS } from './fixtures/forms.js';
import { declaredFor, formRoutes } from '../src/forms/route.js';
import { useApp } from './helpers/app.js';

describe('one identity per form (docs/forms.md §8)', () => {
  const app = useApp();

  for (const form of FORMS) {
    it(`${form.name}: ${form.path} renders the ${form.island} island, posting to its path under its name`, async () => {
      assert.ok(declaredFor(form, form.path).islands.includes(form.island), 'the route table (or a test form its own) declares the island at the path');
      const page = await app.request(form.path);
      assert.equal(page.status, 200);
      assert.match(page.body, new RegExp(`<div data-island="${form.island}"`));
      const tag = /<form [^>]*>/.exec(page.body)?.[0] ?? '';
      assert.match(tag, new RegExp(`action="${form.path}"`));
      assert.match(tag, new RegExp(`data-form="${form.name}"`));
    });
  }

  it('refuses a definition whose island the route table does not declare at its path', () => {
    const rateLimit = { limit: 1, windowMs: 1000 };
    const wrong = defineForm({ name: 'verkeerd', path: '/contact', island: 'RegistrationForm', dto: ContactDto, pages: contactForm.pages });
    assert.throws(() => formRoutes(wrong, undefined as never, rateLimit), { name: 'TypeError', message: 'Route /contact must declare the island "RegistrationForm" in protocol/routes.json' });
    const undeclared = defineForm({ name: 'nergens', path: '/nergens', island: 'ContactForm', dto: ContactDto, pages: contactForm.pages });
    assert.throws(() => formRoutes(undeclared, undefined as never, rateLimit), RangeError);
    const elsewhere = defineForm({ name: 'elders', path: '/elders', island: 'ContactForm', dto: ContactDto, pages: contactForm.pages, routes: [{ path: '/elders', kind: 'ssr', islands: ['ContactForm'] }] });
    assert.throws(() => formRoutes(elsewhere, undefined as never, rateLimit), { name: 'RangeError', message: 'Form "elders" declares routes, but not "/contact/bedankt"' });
  });
});
