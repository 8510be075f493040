/**
 * The controls no site form uses yet, in Chromium (docs/forms.md §10), with JavaScript on: a radio
 * group read and judged as one field, its summary link moving focus to its first option; a
 * password judged by its rules; tel, date and time read as typed; the server's message on a date,
 * a time or an option it could not show back kept until that field is edited (docs/forms.md §5);
 * with JavaScript off, every control there to fill; and a date or time input holding exactly the
 * values the form layer shows back (docs/forms.md §4).
 */
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { productionAssets } from '../../src/assets/source.js';
import { islandRoutes, testBuild } from '../fixtures/island-routes.js';
import { DATE_VALUES, TIME_VALUES } from '../fixtures/date-time-values.js';
import { browserSuite, needsServer, withPage } from '../helpers/browser-suite.js';
import { fieldErrors, fillForm, visibleFieldErrors } from '../helpers/form.js';

let build: Awaited<ReturnType<typeof testBuild>> | undefined;
const suite = browserSuite(async () => {
  build = await testBuild({ testIslands: true });
  return { assets: productionAssets(build.dir), extraRoutes: islandRoutes };
});
after(() => build?.remove());

const HYDRATED = '[data-island="Bedieningen"][data-hydrated="true"]';
const message = (name: string) => `document.querySelector('#${name}-fout')?.textContent ?? null`;

describe('the controls of the form layer in Chromium (docs/forms.md §10)', { skip: needsServer('a test-only island') }, () => {
  it('with JavaScript: judges a radio group when focus leaves it, a password by its rules, and lists what is missing', () =>
    withPage(suite.chromium, {}, async ({ page, errors }) => {
      await page.goto(`${suite.app.url}/proef/bedieningen`);
      await page.waitForSelector(HYDRATED, { timeout: 5000 });

      await page.focus('#wachtwoord');
      await page.keyboard.type('kort');
      await page.keyboard.press('Tab');
      await page.waitForFunction(`${message('wachtwoord')} === 'at least 8 characters'`, { timeout: 3000 });
      assert.equal(await page.$eval('#wachtwoord', (e) => (e as HTMLInputElement).value), 'kort', 'what was typed stays in the field');

      // A submit with the rest empty: the summary names each field, its link moves focus.
      await page.click('button[type="submit"]');
      await page.waitForSelector('#foutoverzicht', { timeout: 3000 });
      const listed = await page.$$eval('#foutoverzicht a', (links) => links.map((a) => a.getAttribute('href')));
      assert.deepEqual(listed, ['#telefoon', '#datum', '#tijd', '#wachtwoord', '#soort-kort']);
      await page.click('#foutoverzicht a[href="#soort-kort"]');
      assert.equal(await page.evaluate('document.activeElement?.id'), 'soort-kort');

      // The group: one option chosen, focus leaving the group judges it as one field.
      await page.click('#soort-lang');
      await page.keyboard.press('Tab');
      await page.waitForFunction(`${message('soort')} === null`, { timeout: 3000 });

      await page.type('#telefoon', '+31 20 123 4567');
      // A date and a time as the browser's picker sets them (how they are typed depends on the locale).
      await fillForm(page, { datum: '2026-11-25', tijd: '09:30' });
      await page.focus('#wachtwoord');
      await page.keyboard.type('langgenoeg');
      await page.keyboard.press('Tab');
      await page.waitForFunction(`${message('wachtwoord')} === null`, { timeout: 3000 });
      const values = await page.evaluate(`Object.fromEntries(new FormData(document.querySelector('form')).entries())`);
      assert.deepEqual(
        { ...(values as Record<string, string>), _csrf: undefined, _submission: undefined, bedrijf: undefined },
        { telefoon: '+31 20 123 4567', datum: '2026-11-25', tijd: '09:30', wachtwoord: 'kortlanggenoeg', soort: 'lang', _csrf: undefined, _submission: undefined, bedrijf: undefined },
      );
      assert.deepEqual(errors, []);
    }));

  it('with JavaScript: keeps the server\'s message on a date, a time and an option it could not show back until that field is edited', () =>
    withPage(suite.chromium, {}, async ({ page, errors }) => {
      await page.goto(`${suite.app.url}/proef/bedieningen`);
      await page.waitForSelector(HYDRATED, { timeout: 5000 });
      // What no picker or group gives, posted natively (past the island) as a browser without
      // JavaScript could send it: the fixture answers 422 with the page again.
      const post = `Object.assign(document.querySelector('#datum'), { type: 'text', value: '2027-02-30' });
        Object.assign(document.querySelector('#tijd'), { type: 'text', value: '24:00' });
        Object.assign(document.querySelector('#soort-kort'), { value: 'middel', checked: true });
        HTMLFormElement.prototype.submit.call(document.querySelector('form'))`;
      const [response] = await Promise.all([page.waitForResponse((r) => r.request().method() === 'POST'), page.evaluate(post)]);
      assert.equal(response.status(), 422);
      const server = { datum: 'Invoer is niet geldig', tijd: 'Invoer is niet geldig', soort: 'Invoer is niet geldig' };
      assert.deepEqual(fieldErrors(await response.text()), server, 'the server\'s messages');
      // The page again, waited for by its content: the router saving the scroll position is a
      // same-document navigation that may end a wait for navigation first.
      await page.waitForSelector('#datum-fout', { timeout: 5000 });
      const shown = await page.$$eval('#datum, #tijd, input[name="soort"]:checked', (inputs) => inputs.map((input) => (input as HTMLInputElement).value));
      assert.deepEqual(shown, ['', ''], 'shown as nothing, no option chosen');

      // The island hydrates at load; an interaction elsewhere is judged after it started.
      await page.waitForSelector(HYDRATED, { timeout: 5000 });
      await page.type('#wachtwoord', 'kort');
      await page.keyboard.press('Tab');
      await page.waitForFunction(`${message('wachtwoord')} === 'at least 8 characters'`, { timeout: 3000 });
      assert.deepEqual(await visibleFieldErrors(page), { ...server, wachtwoord: 'at least 8 characters' });

      // An edit of the date is judged as any change; the others keep the server's message.
      await fillForm(page, { datum: '2026-11-25' });
      await page.focus('#telefoon');
      await page.waitForFunction(`${message('datum')} === null`, { timeout: 3000 });
      assert.deepEqual(await visibleFieldErrors(page), { tijd: server.tijd, soort: server.soort, wachtwoord: 'at least 8 characters' });
      assert.deepEqual(errors.filter((e) => !/status of 422/.test(e)), []);
    }));

  it('holds in a date or time input exactly the values the form layer shows back: HTML\'s valid date and time strings', () =>
    withPage(suite.chromium, {}, async ({ page }) => {
      const rows = [...DATE_VALUES.map(([value]) => ['date', value]), ...TIME_VALUES.map(([value]) => ['time', value])];
      // What the browser keeps of each value: its value sanitization empties one it cannot hold.
      const script = `JSON.stringify(${JSON.stringify(rows)}.map(([type, value]) => {
        const input = document.createElement('input');
        input.type = type;
        input.value = value;
        return input.value === value;
      }))`;
      const held = JSON.parse(String(await page.evaluate(script))) as boolean[];
      assert.deepEqual(
        rows.map(([, value], i) => `${value}: ${held[i]}`),
        [...DATE_VALUES, ...TIME_VALUES].map(([value, holds]) => `${value}: ${holds}`),
      );
    }));

  it('without JavaScript: every control is there to fill, a group of radio buttons under its legend', () =>
    withPage(suite.chromium, { javaScript: false }, async ({ page }) => {
      await page.goto(`${suite.app.url}/proef/bedieningen`);
      const types = await page.$$eval('form input:not([type="hidden"])', (inputs) => inputs.map((i) => `${i.id}:${(i as HTMLInputElement).type}`));
      assert.deepEqual(types, ['bedrijf:text', 'telefoon:tel', 'datum:date', 'tijd:time', 'wachtwoord:password', 'soort-kort:radio', 'soort-lang:radio']);
      assert.equal(await page.$eval('fieldset[data-field="soort"] legend', (e) => e.textContent), 'Soort');
      await page.click('#soort-kort');
      await page.click('#soort-lang');
      assert.deepEqual(await page.$$eval('input[name="soort"]', (inputs) => inputs.map((i) => (i as HTMLInputElement).checked)), [false, true], 'one option at a time');
    }));
});
