/**
 * The contract travels with the clone (docs/README.md): every `docs/<file>.md §N` a comment or
 * document cites exists, and nothing cites what a clone cannot see (`../shared/`, the original
 * specification files, issue numbers).
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';

/** Where citations live: the code, its tests, the build and the top-level documents. */
const ROOTS = ['src', 'protocol', 'views', 'islands', 'build', 'scripts', 'test', 'bench', 'deploy', 'build.mjs', 'README.md', 'ARCHITECTURE.md', 'docs'];
/** This file: its examples cite on purpose. */
const SELF = join('test', 'docs.test.ts');
const TEXT = /\.(ts|tsx|mjs|js|jsx|css|md|conf|json)$/;

function files(path: string): string[] {
  if (!statSync(path).isDirectory()) return TEXT.test(path) ? [path] : [];
  return readdirSync(path).flatMap((name) => (name === 'node_modules' || name.startsWith('.') || name === 'results' ? [] : files(join(path, name))));
}

/** The section numbers of each document: its `## §N` headings. */
const SECTIONS = new Map(readdirSync('docs').map((name) => [name, new Set([...readFileSync(join('docs', name), 'utf8').matchAll(/^## §(\d+) /gm)].map((m) => Number(m[1])))]));

/**
 * The citations a text makes that do not exist.
 * @returns e.g. `docs/forms.md §12` for each section or file missing
 */
function brokenCitations(text: string): string[] {
  const broken: string[] = [];
  for (const [citation, file, sections = ''] of text.matchAll(/docs\/([a-z-]+\.md)((?: §\d+(?:–§?\d+)?(?:, §\d+(?:–§?\d+)?)*)?)/g)) {
    const known = SECTIONS.get(file!);
    if (!known) {
      broken.push(citation);
      continue;
    }
    for (const [, from, to] of sections.matchAll(/§(\d+)(?:–§?(\d+))?/g)) {
      for (let n = Number(from); n <= Number(to ?? from); n++) if (!known.has(n)) broken.push(`docs/${file} §${n}`);
    }
  }
  return broken;
}

describe('citations of the contract', () => {
  const all = ROOTS.flatMap(files);

  it('every cited docs/ file and section exists', () => {
    const broken = all.filter((file) => file !== SELF).flatMap((file) => brokenCitations(readFileSync(file, 'utf8')).map((c) => `${file}: ${c}`));
    assert.deepEqual(broken, []);
  });

  it('nothing cites what a clone cannot see', () => {
    const outside = /\.\.\/shared\/|\b(?:product|seed-spec|toolchain|style)\.md\b|\bissue \d+\b|\(#\d+\)/;
    const found = all.filter((file) => file !== SELF && outside.test(readFileSync(file, 'utf8')));
    assert.deepEqual(found, []);
  });

  it('would catch a missing section or file', () => {
    assert.deepEqual(brokenCitations('see docs/forms.md §1–§2, §99 and docs/nope.md §1'), ['docs/forms.md §99', 'docs/nope.md §1']);
    assert.deepEqual(brokenCitations('docs/pages.md §1, docs/operations.md §4–§5'), []);
  });
});
