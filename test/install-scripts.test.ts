/**
 * A clean install (docs/development.md §5): `allowScripts` in package.json decides the install
 * script of every package the lock file holds, so `npm install` and `npm ci` on a fresh clone
 * warn of none; and it names no package without one, as an allowance nothing uses would let a
 * later version's script run unreviewed.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';

/** What of package-lock.json this reads. */
interface Lock {
  packages: Record<string, { hasInstallScript?: boolean }>;
}

/** The package of a lock entry: `node_modules/a/node_modules/@swc/core` → `@swc/core`. */
const packageOf = (path: string) => path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length);
/** The package an `allowScripts` key names: `sharp@0.35.5` → `sharp`, `@swc/core@1` → `@swc/core`. */
const keyPackage = (key: string) => key.replace(/(?!^)@.*$/, '');

/**
 * How `allowScripts` and the lock file disagree.
 * @returns the packages with an install script it does not decide, and the packages it names that have none
 */
function disagreement(allowScripts: Record<string, boolean>, lock: Lock): { undecided: string[]; unused: string[] } {
  const scripted = new Set(Object.entries(lock.packages).flatMap(([path, entry]) => (path !== '' && entry.hasInstallScript ? [packageOf(path)] : [])));
  const decided = new Set(Object.keys(allowScripts).map(keyPackage));
  return { undecided: [...scripted].filter((name) => !decided.has(name)).sort(), unused: [...decided].filter((name) => !scripted.has(name)).sort() };
}

describe('install scripts', () => {
  it('allowScripts decides every locked package with an install script, and only those', () => {
    const { allowScripts } = JSON.parse(readFileSync('package.json', 'utf8')) as { allowScripts: Record<string, boolean> };
    const lock = JSON.parse(readFileSync('package-lock.json', 'utf8')) as Lock;
    assert.deepEqual(disagreement(allowScripts, lock), { undecided: [], unused: [] });
  });

  it('would catch a new package with a script, and an allowance for a package without one', () => {
    const lock: Lock = { packages: { '': {}, 'node_modules/esbuild': { hasInstallScript: true }, 'node_modules/x/node_modules/@swc/core': { hasInstallScript: true }, 'node_modules/sharp': {} } };
    assert.deepEqual(disagreement({ 'esbuild@0.28.2': true, sharp: true }, lock), { undecided: ['@swc/core'], unused: ['sharp'] });
    assert.deepEqual(disagreement({ esbuild: true, '@swc/core': false }, lock), { undecided: [], unused: [] });
  });
});
