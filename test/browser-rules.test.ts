/**
 * The rule list the island validates with (docs/forms.md §5): derived from the registration DTO's
 * class-validator metadata, never written twice, and refusing a rule the browser cannot evaluate.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { IsNotEmpty, IsPositive } from 'class-validator';
import { browserRules } from '../src/forms/browser-rules.js';
import { RegistrationDto } from '../src/forms/registration.js';

describe('the rule list derived from the DTO (docs/forms.md §5)', () => {
  it('lists each field’s rules in written order, with transforms, optionality and messages', () => {
    const rules = browserRules(RegistrationDto);
    assert.deepEqual(Object.keys(rules), ['naam', 'email', 'website', 'referentie', 'gebruikersnaam', 'landcode', 'interesses', 'personen', 'akkoord']);
    assert.deepEqual(rules.naam, {
      transform: 'trim',
      optional: false,
      rules: [
        { name: 'isNotEmpty', constraints: [], each: false, message: 'Dit veld is verplicht' },
        { name: 'minLength', constraints: [2], each: false, message: 'at least 2 characters' },
        { name: 'maxLength', constraints: [60], each: false, message: 'at most 60 characters' },
      ],
    });
    assert.deepEqual(rules.gebruikersnaam?.rules.map((r) => r.name), ['isNotEmpty', 'isTrimmed', 'isLowercase', 'minLength', 'maxLength', 'matches']);
    assert.deepEqual(rules.gebruikersnaam?.rules.at(-1)?.constraints, [{ regexp: '^[a-z0-9_]+$', flags: '' }, null]);
    assert.equal(rules.website?.optional, true);
    assert.equal(rules.personen?.transform, 'integer');
    assert.equal(rules.interesses?.rules.at(-1)?.each, true);
  });

  it('refuses a rule the browser cannot evaluate, naming field and rule', () => {
    class Unsupported {
      @IsNotEmpty()
      @IsPositive()
      aantal!: number;
    }
    assert.throws(() => browserRules(Unsupported), /Field "aantal" uses rule "isPositive", which the browser cannot evaluate/);
  });
});
