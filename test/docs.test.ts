/**
 * The contract travels with the clone (docs/README.md): every citation a comment or document
 * makes holds (test/helpers/citations.ts: a `§N` says its file, the cited `docs/<file>.md §N`,
 * heading, link or path is there), and nothing cites what a clone cannot see (`../shared/`, the
 * original specification files, issue numbers). The files read are the repository's own (git's
 * list, ignored files aside), so a new folder is read without being named here.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { badCitations, workingTree, type Repository } from './helpers/citations.js';

/** These two: their examples cite on purpose. */
const SELF = ['test/docs.test.ts', 'test/helpers/citations.ts'];
/** Code, documents and configuration; lock files, dot-files (CI and tool settings) and images aside. */
const TEXT = /\.(ts|tsx|mts|js|mjs|cjs|jsx|astro|css|md|conf|json|sh)$/;
/** What a clone cannot see. */
const OUTSIDE = /\.\.\/shared\/|\b(?:product|seed-spec|toolchain|style)\.md\b|\bissue \d+\b|\(#\d+\)/;

const tree = workingTree();
const all = tree.files.filter((file) => TEXT.test(file) && !/(?:^|\/)(?:\.|node_modules\/|dist\/)|-lock\.json$/.test(file) && !SELF.includes(file));

/** A repository for the control cases: three documents, two headings, a few files. */
const fake: Repository = {
  sections: (path) => ({ 'docs/forms.md': new Set([1, 2]), 'docs/errors.md': new Set([1, 2, 3]), 'docs/operations.md': new Set([2, 7]) })[path],
  headings: (path) => ({ 'README.md': new Set(['Scripts']), 'ARCHITECTURE.md': new Set(['Layout']) })[path],
  exists: (path) => ['docs/forms.md', 'docs/errors.md', 'images/hero.svg', 'build/images.mjs'].includes(path),
};

describe('citations of the contract', () => {
  it('reads every folder of code and documents', () => {
    const folders = new Set(all.map((file) => (file.includes('/') ? `${file.split('/')[0]}/` : file)));
    for (const folder of ['src/', 'islands/', 'views/', 'protocol/', 'build/', 'scripts/', 'bench/', 'test/', 'docs/', 'deploy/', 'README.md', 'ARCHITECTURE.md', 'build.mjs']) assert.ok(folders.has(folder), folder);
    assert.ok(all.includes('images/README.md'));
  });

  it('every citation holds', () => {
    const broken = all.flatMap((file) => badCitations(file, readFileSync(file, 'utf8'), tree).map((fault) => `${file} ${fault}`));
    assert.deepEqual(broken, []);
  });

  it('nothing cites what a clone cannot see', () => {
    assert.deepEqual(
      all.filter((file) => OUTSIDE.test(readFileSync(file, 'utf8'))),
      [],
    );
  });

  it('would catch a § without its file', () => {
    assert.deepEqual(badCitations('src/x.ts', '/** Logged at `debug` (§12). */', fake), ['line 1: bare: §12 without its file (docs/<file>.md §12)']);
    assert.deepEqual(badCitations('images/README.md', 'served through `/_image` (§2, §4)', fake), ['line 1: bare: §2, §4 without its file (docs/<file>.md §2, §4)']);
    // With its file, wrapped over two comment lines, or a standard's section: nothing to report.
    assert.deepEqual(badCitations('src/x.ts', '/**\n * A form (docs/forms.md\n * §1–§2). RFC 9112 §3.2, https://www.w3.org/TR/trace-context/ §3.2\n */', fake), []);
  });

  it('would catch a missing section or file', () => {
    assert.deepEqual(badCitations('src/x.ts', '// see docs/forms.md §1–§2, §99 and docs/nope.md §1', fake), ['line 1: section: docs/forms.md has no §99', 'line 1: section: docs/nope.md is not there']);
    assert.deepEqual(badCitations('docs/errors.md', 'as [forms.md §3](forms.md)\nand §4, but §3 and forms.md §2', fake), ['line 1: section: docs/forms.md has no §3', 'line 2: section: docs/errors.md has no §4']);
  });

  it('would catch a link that goes to another file than it names', () => {
    assert.deepEqual(badCitations('docs/errors.md', 'the titles ([forms.md §1](pages.md))', fake), ['line 1: link: [forms.md …] goes to pages.md']);
  });

  it('would catch a heading that is not there', () => {
    assert.deepEqual(badCitations('src/x.ts', '// JSON lines (README "Logs"), the QA kit (README, "QA kit"), a deploy (README: deploy)', fake), [
      'line 1: heading: README.md has no heading "Logs"',
      'line 1: heading: README.md has no heading "QA kit"',
      'line 1: heading: README.md has no heading "deploy"',
    ]);
    assert.deepEqual(badCitations('test/x.ts', '// (ARCHITECTURE.md "Layout", README "Scripts")', fake), []);
  });

  it('would catch a linked or backticked path that is not there', () => {
    const readme = 'Rendered by the build (`scripts/build-images.mjs`, `build/images.mjs`), see [hero](hero.svg), [gone](gone.svg), [site](https://eiland.example) and [below](#licence).';
    assert.deepEqual(badCitations('images/README.md', readme, fake), ['line 1: path: scripts/build-images.mjs is not there', 'line 1: path: gone.svg is not there']);
  });

  it('would catch what a clone cannot see', () => {
    assert.ok(OUTSIDE.test('served through `/_image` (product.md §10)'));
    assert.ok(OUTSIDE.test('// bounded fault tests (issue 12)'));
  });
});
