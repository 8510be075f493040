/**
 * The benchmark's peers render Eiland's own registration island (docs/performance.md §2): the rule
 * list they register and the checks they import are the ones Eiland derives today, as
 * bench/next/write-rules.mjs writes them (the benchmark runs it; this test catches a list that
 * changed without it).
 */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { describe, it } from 'node:test';
import { checkRegistration } from '../build/form-islands.mjs';
import { BROWSER_RULE_LISTS } from '../src/forms/browser-rule-lists.js';

describe("the benchmark's peers (docs/performance.md §2)", () => {
  it('register the rule list Eiland derives, and import the checks of its rules', async () => {
    const rules = BROWSER_RULE_LISTS.RegistrationForm;
    assert.ok(rules);
    assert.deepEqual(JSON.parse(await readFile('bench/next/rules.json', 'utf8')), JSON.parse(JSON.stringify(rules)));
    const checks = await readFile('bench/next/lib/registration-checks.mjs', 'utf8');
    assert.ok(checks.includes(checkRegistration(rules, '../../../islands/lib', '.js').join('\n')), 'run node bench/next/write-rules.mjs');
  });
});
