/**
 * One module per rule (docs/forms.md §10): every module of islands/lib/rules/ is named by its
 * rule and listed in the server's index, every rule has a server decorator (class-validator's, or
 * a custom rule's made from its module in src/forms/custom-rules.ts), each form island's bundle
 * carries the checks of the rules its list names and no other, and a DTO with a rule no module
 * defines is refused.
 */
import assert from 'node:assert/strict';
import { readdir } from 'node:fs/promises';
import { describe, it } from 'node:test';
import * as classValidator from 'class-validator';
import { Contains } from 'class-validator';
import { join } from 'node:path';
import { ROOT } from '../build/paths.mjs';
import { checkModules } from '../build/rules.mjs';
import { RULES } from '../islands/lib/rules/index.js';
import type { FormRules } from '../protocol/rules.js';
import { browserRules } from '../src/forms/browser-rules.js';
import * as customRules from '../src/forms/custom-rules.js';
import { defaultMessage, ruleNamed } from '../src/forms/known-rules.js';
import { rulesOf, validateForm } from '../src/forms/validate.js';
import { islandBundles } from './helpers/island-bundles.js';

const FOLDER = new URL('../islands/lib/rules/', import.meta.url);

describe('the rule modules (docs/forms.md §10)', () => {
  it('name each module by its rule and list every one in the index', async () => {
    const files = (await readdir(FOLDER)).filter((f) => f.endsWith('.ts') && f !== 'rule.ts' && f !== 'index.ts');
    assert.ok(files.length > 0);
    for (const file of files) {
      const name = file.slice(0, -'.ts'.length);
      const module = (await import(new URL(file, FOLDER).href)) as { name: string };
      assert.equal(module.name, name, `${file} exports the name of its rule`);
      assert.equal(RULES[name]?.name, name, `${name} is in the index`);
    }
    assert.equal(Object.keys(RULES).length, files.length);
  });

  it("gives every rule a server decorator: class-validator's own, or one of src/forms/custom-rules.ts that runs its module's check under its name", async () => {
    const builtIn = new Set(Object.values(classValidator).filter((value) => typeof value === 'string'));
    const custom = new Set<string>();
    for (const [exported, factory] of Object.entries(customRules)) {
      if (exported === 'decoratorOf') continue;
      class Dto {
        veld!: unknown;
      }
      (factory as () => PropertyDecorator)()(Dto.prototype, 'veld');
      const rules = rulesOf(Dto).get('veld') ?? [];
      assert.equal(rules.length, 1, exported);
      const name = rules[0]!.name;
      assert.ok(RULES[name], `${exported} is the decorator of a rule module, not of "${name}"`);
      custom.add(name);
      for (const value of ['anna@voorbeeld.nl', ' anna ', '"a b"@voorbeeld.nl', 'a', 5]) {
        const { ok } = await validateForm(Dto, { veld: value });
        assert.equal(ok, RULES[name].check(value, []), `${exported} judges ${JSON.stringify(value)} as its module does`);
      }
    }
    assert.ok(custom.size > 0);
    for (const name of Object.keys(RULES)) assert.ok(builtIn.has(name) !== custom.has(name), `${name}: one decorator, class-validator's or a custom one`);
  });

  it("bundles into each form island the checks of the rules its list names, and no other rule's module", async () => {
    const { inputs, lists } = await islandBundles();
    assert.ok(Object.keys(lists).length > 0);
    for (const [island, list] of Object.entries(lists)) {
      const bundled = [...inputs[island]!].flatMap((input) => /^islands\/lib\/rules\/(\w+)\.ts$/.exec(input)?.[1] ?? []).filter((name) => name !== 'rule');
      const named = Object.values(list).flatMap((field) => field.rules.map((rule) => rule.name));
      assert.deepEqual(new Set(bundled), new Set(named), island);
    }
  });

  it('gives each rule its message, with the bounds filled in, and any other the general one', () => {
    assert.equal(defaultMessage('minLength', [2]), 'at least 2 characters');
    assert.equal(defaultMessage('isEmail'), 'Dit is geen geldig email adress');
    assert.equal(defaultMessage('contains', ['x']), 'Invoer is niet geldig');
  });

  it("knows a form's own rule from the moment its decorator is made: its list and its message, and no second rule of its name", () => {
    const isOdd = { name: 'isOddTestRule', check: (v: unknown) => typeof v === 'string' && v.length % 2 === 1, message: () => 'Een oneven aantal tekens' };
    assert.equal(ruleNamed(isOdd.name), undefined);
    const IsOdd = customRules.decoratorOf(isOdd);
    class Dto {
      @IsOdd()
      veld!: string;
    }
    assert.equal(ruleNamed(isOdd.name), isOdd);
    assert.deepEqual(browserRules(Dto).veld?.rules, [{ name: 'isOddTestRule', constraints: [], each: false, message: 'Een oneven aantal tekens' }]);
    assert.throws(() => customRules.decoratorOf({ ...isOdd, check: () => true }), { name: 'TypeError', message: /Two rules are named "isOddTestRule"/ });
    assert.throws(() => customRules.decoratorOf({ ...RULES.isIn!, check: () => true }), { name: 'TypeError', message: /Two rules are named "isIn"/ });
  });

  it("finds each rule's module for the browser: the layer's in islands/lib/rules/, a form's own by its name among the forms' sources", () => {
    const field = (...names: string[]): FormRules[string] => ({ transform: null, optional: false, rules: names.map((name) => ({ name, constraints: [], each: false, message: '' })) });
    const inputs = ['islands/lib/rules/isIn.ts', 'test/islands/rules/isIn.ts', 'test/islands/rules/isWeekday.ts', 'src/forms/define.ts'].map((file) => join(ROOT, file));
    assert.deepEqual(checkModules(ROOT, { A: { a: field('isIn') }, B: { b: field('isWeekday', 'isIn') } }, inputs), { isIn: 'islands/lib/rules/isIn.ts', isWeekday: 'test/islands/rules/isWeekday.ts' });
    assert.throws(() => checkModules(ROOT, { A: { a: field('isGone') } }, inputs), /"isGone" needs one module named isGone\.ts .*found none/);
    const twice = [...inputs, join(ROOT, 'test/fixtures/isWeekday.ts')];
    assert.throws(() => checkModules(ROOT, { A: { a: field('isWeekday') } }, twice), /found test\/islands\/rules\/isWeekday\.ts, test\/fixtures\/isWeekday\.ts/);
  });

  it('refuses a DTO with a rule no module defines, naming field and rule', () => {
    class Dto {
      @Contains('x')
      veld!: string;
    }
    assert.throws(() => browserRules(Dto), { name: 'TypeError', message: 'Field "veld" uses rule "contains", which the browser cannot evaluate' });
  });
});
