/**
 * Every form in Chromium, with JavaScript off and on (docs/forms.md §4, §5, §8), from its
 * definition and its kit alone: for each form of the test app (test/fixtures/forms.ts), a value in
 * the wrong format in each text field is judged as the server's DTO judges it (without JavaScript
 * on the 422 page, every value kept; with it inline, when focus leaves the field, with no
 * request), and a valid form filled as a person fills it is stored and goes on as the form's pages
 * say (without JavaScript by the 303, with it by the router).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Page } from 'puppeteer-core';
import type { FormDefinition } from '../../src/forms/define.js';
import { validateForm } from '../../src/forms/validate.js';
import { FORMS } from '../fixtures/forms.js';
import { browserSuite, needsServer, withPage } from '../helpers/browser-suite.js';
import { fillForm, FORM_KITS, formDestination, visibleFieldErrors, type FormKit } from '../helpers/form.js';
import { hydrateIsland } from './kit.js';

const suite = browserSuite();

/** The form's submit button, by role and name. */
async function submit(page: Page, kit: FormKit) {
  const button = await page.$(`::-p-aria(${kit.submit}[role="button"])`);
  assert.ok(button, `a button named "${kit.submit}"`);
  return button;
}

/** The messages the server's DTO gives these values, by field. */
async function serverMessages(form: FormDefinition, values: Record<string, unknown>): Promise<Record<string, string>> {
  const result = await validateForm(form.dto, values);
  return result.ok ? {} : result.errors;
}

/** The `<name>_received` lines of the form so far. */
const received = (form: FormDefinition) => suite.local.logs().filter((line) => line.event === `${form.name}_received`);

describe('every form in Chromium (docs/forms.md §8)', { skip: needsServer('the app’s log') }, () => {
  for (const form of FORMS) {
    const kit = FORM_KITS[form.name]!;
    const wrong = { ...kit.valid, ...kit.wrongFormats };
    // The wrong fields' valid values: what a person retypes (a box clicked again would be unchecked).
    const corrected = Object.fromEntries(Object.keys(kit.wrongFormats).map((field) => [field, kit.valid[field]]));

    it(`${form.name}, JavaScript off: the 422 page judges each wrong format as the server does, keeps every value, and a valid form is stored and goes on`, () =>
      withPage(suite.chromium, { javaScript: false }, async ({ page }) => {
        await page.goto(suite.app.url + form.path, { waitUntil: 'load' });
        await fillForm(page, wrong);
        const [refused] = await Promise.all([page.waitForNavigation(), (await submit(page, kit)).click()]);
        assert.equal(refused?.status(), 422);
        assert.deepEqual(await visibleFieldErrors(page), await serverMessages(form, wrong));
        for (const [field, value] of Object.entries(kit.wrongFormats)) assert.equal(await page.$eval(`#${field}`, (e) => (e as HTMLInputElement).value), value, `${field} kept`);
        const before = received(form).length;
        await fillForm(page, corrected);
        const [stored] = await Promise.all([page.waitForNavigation(), (await submit(page, kit)).click()]);
        assert.equal(stored?.status(), 200);
        assert.match(new URL(page.url()).pathname, formDestination(form));
        assert.equal(received(form).length, before + 1, 'stored once');
      }));

    it(`${form.name}, JavaScript on: each wrong format judged inline as the server does with no request, and a valid form is stored and goes on by the router`, () =>
      withPage(suite.chromium, {}, async ({ page, errors }) => {
        await page.goto(suite.app.url + form.path, { waitUntil: 'load' });
        await hydrateIsland(page, kit.island);
        const posts: string[] = [];
        page.on('request', (request) => void (request.method() === 'POST' && posts.push(request.url())));
        await fillForm(page, wrong);
        await page.keyboard.press('Tab');
        const expected = await serverMessages(form, wrong);
        assert.deepEqual(await visibleFieldErrors(page), expected);
        await (await submit(page, kit)).click();
        await page.waitForFunction('document.activeElement?.id === "foutoverzicht"', { timeout: 5000 });
        assert.deepEqual(posts, [], 'judged in the browser');
        const before = received(form).length;
        await fillForm(page, corrected);
        await (await submit(page, kit)).click();
        await page.waitForFunction(`location.pathname !== ${JSON.stringify(form.path)}`, { timeout: 10_000 });
        assert.match(new URL(page.url()).pathname, formDestination(form));
        assert.equal(received(form).length, before + 1, 'stored once');
        assert.equal(posts.length, 1);
        assert.deepEqual(errors, []);
      }));
  }
});
