/**
 * The folders' import rules (ARCHITECTURE.md "Layout"): the protocol imports nothing outside
 * itself; views import only views and the protocol; browser code (islands/) only its own files,
 * the protocol and browser packages, never the server's validation packages (class-validator,
 * class-transformer: a rule's decorator lives in src/forms/, docs/forms.md §10). Nothing in them
 * imports from src/, so the server/browser line is crossed only through protocol/.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize, relative, sep } from 'node:path';
import { describe, it } from 'node:test';

/**
 * Each folder, the folders its files may import from, whether it may import packages (protocol/
 * takes none), and the packages it never imports (with any subpath).
 */
const RULES: Record<string, { may: string[]; packages: boolean; never?: string[] }> = {
  protocol: { may: ['protocol'], packages: false },
  views: { may: ['views', 'protocol'], packages: true },
  islands: { may: ['islands', 'protocol'], packages: true, never: ['class-validator', 'class-transformer', 'reflect-metadata'] },
};

/** The package a bare specifier names: `validator/es/lib/isEmail.js` → `validator`, `@scope/x/y` → `@scope/x`. */
const packageOf = (specifier: string) => specifier.split('/').slice(0, specifier.startsWith('@') ? 2 : 1).join('/');

/** Every `.ts`/`.tsx` file below a folder. */
function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return /\.tsx?$/.test(name) && !name.endsWith('.d.ts') ? [path] : [];
  });
}

/** The module specifiers a source imports: static imports, re-exports and dynamic imports of literals. */
function specifiers(text: string): string[] {
  const found = [...text.matchAll(/^\s*(?:import|export)\b[^'"]*?\bfrom\s+['"]([^'"]+)['"]|^\s*import\s+['"]([^'"]+)['"]|\bimport\(\s*['"]([^'"]+)['"]\s*\)/gm)];
  return found.map((m) => m[1] ?? m[2] ?? m[3]!);
}

/**
 * What a file imports that its folder may not.
 * @param file a path relative to the project root, e.g. `views/Island.tsx`
 * @returns one line per offending import
 */
function violations(file: string, text: string): string[] {
  const folder = file.split(sep)[0]!;
  const rule = RULES[folder]!;
  return specifiers(text).flatMap((specifier) => {
    if (!specifier.startsWith('.')) {
      if (!rule.packages) return [`${file} imports the package ${specifier}`];
      return rule.never?.includes(packageOf(specifier)) ? [`${file} imports the server package ${specifier}`] : [];
    }
    const target = normalize(join(dirname(file), specifier)).split(sep)[0]!;
    return rule.may.includes(target) ? [] : [`${file} imports ${specifier} (${target}/)`];
  });
}

describe('import boundaries between the folders', () => {
  for (const folder of Object.keys(RULES)) {
    const { may, packages, never } = RULES[folder]!;
    it(`${folder}/ imports only ${may.join(' and ')}${packages ? ` (and packages${never ? `, never ${never.join(', ')}` : ''})` : ''}`, () => {
      const found = sources(folder).flatMap((file) => violations(relative('.', file), readFileSync(file, 'utf8')));
      assert.deepEqual(found, []);
    });
  }

  it('would catch a view, an island or the protocol importing from src/', () => {
    assert.deepEqual(violations(join('views', 'X.tsx'), "import { HttpError } from '../src/errors.js';"), [`views${sep}X.tsx imports ../src/errors.js (src/)`]);
    assert.deepEqual(violations(join('views', 'X.tsx'), "import Form from '../islands/Form.js';"), [`views${sep}X.tsx imports ../islands/Form.js (islands/)`]);
    assert.deepEqual(violations(join('islands', 'runtime', 'x.ts'), "export { a } from '../../src/a.js';"), [`islands${sep}runtime${sep}x.ts imports ../../src/a.js (src/)`]);
    assert.deepEqual(violations(join('islands', 'x.ts'), "const m = await import('../src/m.js');"), [`islands${sep}x.ts imports ../src/m.js (src/)`]);
    assert.deepEqual(violations(join('protocol', 'x.ts'), "import 'node:fs';"), [`protocol${sep}x.ts imports the package node:fs`]);
    assert.deepEqual(violations(join('islands', 'x.ts'), "import { a } from '../protocol/a.js';\nimport { b } from './b.js';"), []);
  });

  it('would catch an island importing class-validator or class-transformer, and lets it import browser packages', () => {
    const rules = join('islands', 'lib', 'rules', 'x.ts');
    assert.deepEqual(violations(rules, "import { ValidateBy, type ValidationOptions } from 'class-validator';"), [`${rules} imports the server package class-validator`]);
    assert.deepEqual(violations(rules, "import type { ValidationOptions } from 'class-validator/types/decorator/ValidationOptions';"), [
      `${rules} imports the server package class-validator/types/decorator/ValidationOptions`,
    ]);
    assert.deepEqual(violations(rules, "import { Transform } from 'class-transformer';"), [`${rules} imports the server package class-transformer`]);
    assert.deepEqual(violations(rules, "import { IsTrimmed } from '../../../src/forms/custom-rules.js';"), [`${rules} imports ../../../src/forms/custom-rules.js (src/)`]);
    assert.deepEqual(violations(rules, "import isEmail from 'validator/es/lib/isEmail.js';\nimport { useState } from 'react';"), []);
    // A view may: it never reaches a browser bundle.
    assert.deepEqual(violations(join('views', 'X.tsx'), "import { isUUID } from 'class-validator';"), []);
  });
});
