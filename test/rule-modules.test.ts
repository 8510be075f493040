/**
 * One module per rule (docs/forms.md §10): every module of islands/lib/rules/ is named by its
 * rule and listed in the server's index, its check is the browser's, and a DTO with a rule no
 * module defines is refused.
 */
import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import { describe, it } from 'node:test';
import { Contains } from 'class-validator';
import { defaultMessage, RULES } from '../islands/lib/rules/index.js';
import { browserRules } from '../src/forms/browser-rules.js';

const FOLDER = new URL('../islands/lib/rules/', import.meta.url);

describe('the rule modules (docs/forms.md §10)', () => {
  it('name each module by its rule, list every one in the index, and give the browser each check', async () => {
    const files = (await readdir(FOLDER)).filter((f) => f.endsWith('.ts') && f !== 'rule.ts' && f !== 'index.ts');
    assert.ok(files.length > 0);
    const validate = await readFile(new URL('../islands/lib/validate.ts', import.meta.url), 'utf8');
    for (const file of files) {
      const name = file.slice(0, -'.ts'.length);
      const module = (await import(new URL(file, FOLDER).href)) as { name: string };
      assert.equal(module.name, name, `${file} exports the name of its rule`);
      assert.equal(RULES[name]?.name, name, `${name} is in the index`);
      assert.match(validate, new RegExp(`import \\{ check as ${name} \\} from './rules/${name}\\.js'`), `the browser imports ${name}'s check`);
    }
    assert.equal(Object.keys(RULES).length, files.length);
  });

  it('gives each rule its message, with the bounds filled in, and any other the general one', () => {
    assert.equal(defaultMessage('minLength', [2]), 'at least 2 characters');
    assert.equal(defaultMessage('isEmail'), 'Dit is geen geldig email adress');
    assert.equal(defaultMessage('contains', ['x']), 'Invoer is niet geldig');
  });

  it('refuses a DTO with a rule no module defines, naming field and rule', () => {
    class Dto {
      @Contains('x')
      veld!: string;
    }
    assert.throws(() => browserRules(Dto), { name: 'TypeError', message: 'Field "veld" uses rule "contains", which the browser cannot evaluate' });
  });
});
