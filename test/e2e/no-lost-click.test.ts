/**
 * No lost click: after typing into any field, one click — or one tap — on
 * Aanmelden always acts, although the field's blur message appears above the button. With
 * JavaScript on (the message is the island's), at 1280 px and at 320 px.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Page } from 'puppeteer-core';
import { browserSuite, withPage } from '../helpers/browser-suite.js';
import { hydrateIsland } from './kit.js';

const suite = browserSuite();

/** The submit button, by role and name (not a class). */
const BUTTON = '::-p-aria(Aanmelden[role="button"])';

/** A value per text field that its blur message refuses (so the message appears and takes space). */
const INVALID: [field: string, value: string][] = [
  ['naam', 'A'],
  ['email', 'anna'],
  ['website', 'voorbeeld.nl'],
  ['referentie', 'abc'],
  ['gebruikersnaam', 'Anna'],
  ['landcode', 'nl'],
  ['personen', '11'],
];

/** Whether the submit acted: the island's error summary (other fields are empty) took focus. */
async function submitted(page: Page): Promise<boolean> {
  return page
    .waitForFunction('document.activeElement && document.activeElement.id === "foutoverzicht"', { timeout: 3000 })
    .then(() => true)
    .catch(() => false);
}

for (const [width, press] of [
  [1280, 'click'],
  [320, 'click'],
  [320, 'tap'],
] as const) {
  describe(`one ${press} on Aanmelden at ${width} px always acts after typing`, () => {
    for (const [field, value] of INVALID) {
      it(`${field}: "${value}", then one ${press}`, () =>
        withPage(suite.chromium, { width }, async ({ page, errors }) => {
          if (press === 'tap') await page.setViewport({ width, height: 640, hasTouch: true, isMobile: true });
          await page.goto(`${suite.app.url}/aanmelden`);
          await hydrateIsland(page, 'RegistrationForm');
          const input = await page.waitForSelector(`#${field}`);
          if (press === 'tap') await input!.tap();
          else await input!.click();
          await page.keyboard.type(value);
          const button = await page.waitForSelector(BUTTON);
          await button!.scrollIntoView();
          if (press === 'tap') await button!.tap();
          else await button!.click();
          assert.equal(await submitted(page), true, 'the first press submitted');
          // The blur message is there too, after the press.
          assert.ok(await page.$eval(`#${field}-fout`, (e) => (e.textContent ?? '').length > 0).catch(() => false), 'the field shows its message');
          assert.deepEqual(errors, []);
        }));
    }
  });
}
