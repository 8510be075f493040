/**
 * The contract travels with the clone (docs/README.md): every citation a comment or document
 * makes holds (test/helpers/citations.ts: a `§N` says its file, the cited `docs/<file>.md §N`,
 * heading, link or path is there), and nothing cites what a clone cannot see (`../shared/`, the
 * original specification files, issue numbers). The files read are the repository's own (git's
 * list, ignored files aside), so a new folder is read without being named here. Every list a
 * document keeps of what a table of the code defines (pages, titles, menus, posts, rules) is
 * that table's (test/helpers/markdown.ts reads the lists). And ARCHITECTURE.md "Layout" names
 * every folder of the code, the build, the scripts and the tests, and none that is gone
 * (test/helpers/layout.ts). The latest figures of docs/performance.md §3 are the table
 * bench/table.mjs renders from the committed bench/results/latest.json.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { FILES, latestTable, MARKERS, tableInDoc, withTable } from '../bench/table.mjs';
import { RULES } from '../islands/lib/rules/index.js';
import { formTitle } from '../protocol/forms.js';
import { menus, ROUTES } from '../protocol/routes.js';
import { TITLE_SUFFIX } from '../src/routes/router.js';
import { badCitations, workingTree, type Repository } from './helpers/citations.js';
import { layoutEntries, layoutFaults } from './helpers/layout.js';
import { between, bullet, codeSpans, section, tableRows } from './helpers/markdown.js';
import { PAGE_PATHS, PAGE_ROUTES, PAGES } from './helpers/site-pages.js';

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

/** A list a document keeps, and the table of the code it must equal. */
interface DocList {
  file: string;
  /** Its section and what it lists. */
  what: string;
  /** Reads the list from the document. */
  read(doc: string): unknown;
  /** The same list, from the code. */
  table(): unknown;
}

/** The paths a text names in code spans, in order. */
const paths = (text: string) => codeSpans(text).filter((span) => span.startsWith('/'));
/** The links a sentence names as `"Label" (`/path`)`, in order. */
const labelled = (text: string) => [...text.matchAll(/"([^"]+)"\s+\(`([^`]+)`\)/g)].map(([, label, href]) => ({ href, label }));
/** The first code span of a table cell: a path, a title. */
const span = (cell: string | undefined) => codeSpans(cell ?? '')[0];
/** The page paths of the routes that take a post. */
const posted = () => PAGE_ROUTES.filter((route) => route.post).map((route) => route.path);
/** The validator.js functions the rule modules import (`validator/es/lib/<name>.js`). */
function validatorImports(): string[] {
  const dir = 'islands/lib/rules';
  const names = readdirSync(dir).flatMap((file) => [...readFileSync(`${dir}/${file}`, 'utf8').matchAll(/from 'validator\/es\/lib\/(\w+)\.js'/g)].map((m) => m[1]!));
  return [...new Set(names)].sort();
}

const LISTS: DocList[] = [
  {
    file: 'docs/pages.md',
    what: "§1 the pages with their kinds, in the route table's order",
    read: (doc) => tableRows(section(doc, 1)).filter(([method, , , kind]) => method === 'GET' && (kind === 'ssr' || kind === 'static')).map(([, path, , kind]) => [span(path), kind]),
    table: () => ROUTES.map((route) => [route.path, route.kind]),
  },
  {
    file: 'docs/pages.md',
    what: '§1 the pages that take a post',
    read: (doc) => tableRows(section(doc, 1)).filter(([method, path]) => method === 'POST' && ROUTES.some((route) => route.path === span(path))).map(([, path]) => span(path)),
    table: posted,
  },
  { file: 'docs/pages.md', what: '§3 the site navigation, in order', read: (doc) => labelled(bullet(section(doc, 3), 'site navigation')), table: () => menus().main },
  { file: 'docs/pages.md', what: "§3 the footer's links, in order", read: (doc) => labelled(bullet(section(doc, 3), 'A footer linking')), table: () => menus().footer },
  {
    file: 'docs/pages.md',
    what: "§3 every page's title, and its title with errors where it has a form",
    read: (doc) => tableRows(section(doc, 3)).filter(([path]) => span(path)?.startsWith('/')).map(([path, titles]) => [span(path), ...codeSpans(titles ?? '')]),
    table: () => PAGE_ROUTES.map((route) => [route.path, route.title + TITLE_SUFFIX, ...(route.failing ? [formTitle(route.title + TITLE_SUFFIX, true)] : [])]),
  },
  { file: 'docs/pages.md', what: '§4 the pages whose Allow has POST', read: (doc) => paths(bullet(section(doc, 4), 'GET, HEAD, POST')), table: posted },
  {
    file: 'docs/pages.md',
    what: '§9 the pages kept out of the index',
    read: (doc) => paths(bullet(section(doc, 9), '**`noindex`.**')).sort(),
    table: () => PAGE_ROUTES.filter((route) => route.noindex !== undefined).map((route) => route.path).sort(),
  },
  {
    file: 'docs/pages.md',
    what: "§9 the sitemap's pages, in the table's order",
    read: (doc) => paths(between(bullet(section(doc, 9), '`GET /sitemap.xml`'), "in the table's order (", ')')),
    table: () => PAGES.filter((page) => !page.noindex).map((page) => page.path),
  },
  { file: 'docs/qa-kit.md', what: '§6 the pages the HTML check reads', read: (doc) => paths(between(section(doc, 6), 'every page of the route table without a parameter (', ')')), table: () => PAGE_PATHS },
  { file: 'docs/forms.md', what: '§5 the rules the island evaluates', read: (doc) => codeSpans(between(section(doc, 5), 'The rule names the island can evaluate are', ';')).sort(), table: () => Object.keys(RULES).sort() },
  { file: 'docs/forms.md', what: '§5 the validator.js functions it imports', read: (doc) => codeSpans(between(section(doc, 5), 'per-function validator.js imports (', ')')).sort(), table: validatorImports },
];

describe("the docs' lists and their tables", () => {
  for (const list of LISTS) {
    it(`${list.file} ${list.what}: the code's`, () => {
      assert.deepEqual(list.read(readFileSync(list.file, 'utf8')), list.table());
    });
  }

  it('would catch a list out of order, a page left out and a list gone', () => {
    const pages = readFileSync('docs/pages.md', 'utf8');
    const [navigation, titles, footer] = ['§3 the site navigation, in order', "§3 every page's title, and its title with errors where it has a form", "§3 the footer's links, in order"].map((what) => LISTS.find((list) => list.what === what)!);
    const swapped = pages.replace('"Start" (`/`), "Aanmelden"', '"Aanmelden" (`/`), "Start"');
    assert.notEqual(swapped, pages);
    assert.notDeepEqual(navigation!.read(swapped), navigation!.table());
    const shorter = pages.replace(/^\| `\/aanmelding-verwijderd` \|.*\n/m, '');
    assert.notEqual(shorter, pages);
    assert.notDeepEqual(titles!.read(shorter), titles!.table());
    assert.throws(() => footer!.read(pages.replace('A footer linking', 'A footer with')), { name: 'RangeError', message: 'No bullet with "A footer linking"' });
  });
});

describe("ARCHITECTURE.md's layout and the tree", () => {
  const architecture = readFileSync('ARCHITECTURE.md', 'utf8');

  it('names every folder of src/, islands/, views/, protocol/, build/, scripts/ and test/ with its concern, and nothing that is not there', () => {
    assert.deepEqual(layoutFaults(layoutEntries(architecture), tree.files), []);
  });

  it('would catch a folder left out, a line that names no folder, a folder without its concern and one named twice', () => {
    const files = ['src/app.ts', 'src/storage/index.ts', 'src/storage/migrations/sqlite/0001.ts', 'test/e2e/kit/page.ts', 'docs/README.md'];
    const doc = [
      '## Layout',
      '```',
      'src/                          the server,',
      '                              in parts',
      'src/app.ts                    composition',
      'src/storage/                  storage',
      'src/storage/migrations/sqlite/ SQLite',
      'src/gone/                     what was',
      'src/gone.ts                   what was',
      'test/',
      'test/e2e/kit/                 the kit',
      'test/e2e/kit/                 the kit again',
      '```',
      '## Next',
    ].join('\n');
    assert.deepEqual(layoutEntries(doc)[0], { path: 'src/', concern: 'the server, in parts' });
    assert.deepEqual(layoutFaults(layoutEntries(doc), files), [
      'src/gone/ is in ARCHITECTURE.md "Layout", but the tree has no such folder',
      'src/gone.ts is in ARCHITECTURE.md "Layout", but the tree has no such file',
      'test/ is in ARCHITECTURE.md "Layout" without a line on its concern',
      'test/e2e/kit/ is in ARCHITECTURE.md "Layout" 2 times',
      'src/storage/migrations/ is a folder of the tree, but ARCHITECTURE.md "Layout" has no line on it',
      'test/e2e/ is a folder of the tree, but ARCHITECTURE.md "Layout" has no line on it',
    ]);
  });

  it('would catch a folder of the tree left out of the real document', () => {
    const shorter = architecture.replace(/^src\/storage\/migrations\/sqlite\/ .*\n/m, '');
    assert.notEqual(shorter, architecture);
    assert.deepEqual(layoutFaults(layoutEntries(shorter), tree.files), ['src/storage/migrations/sqlite/ is a folder of the tree, but ARCHITECTURE.md "Layout" has no line on it']);
  });
});

describe('docs/performance.md §3 and the latest run', () => {
  const doc = readFileSync(FILES.doc, 'utf8');
  const results = JSON.parse(readFileSync(FILES.results, 'utf8')) as Record<string, any>;
  const lock = JSON.parse(readFileSync(FILES.lock, 'utf8')) as { packages: Record<string, { version?: string }> };

  it('holds in §3 the table bench/table.mjs renders from the committed bench/results/latest.json', () => {
    assert.ok(section(doc, 3).includes(MARKERS.start) && section(doc, 3).includes(MARKERS.end), 'the markers are in §3');
    assert.equal(tableInDoc(doc), latestTable(results, lock), 'the table is stale: node bench/table.mjs --write');
  });

  it('would catch a run that is not the one in the document, and a document without its markers', () => {
    assert.notEqual(latestTable({ ...results, date: '2000-01-01T00:00:00.000Z' }, lock), tableInDoc(doc));
    assert.throws(() => tableInDoc(doc.replace(MARKERS.end, '')), { name: 'RangeError' });
    assert.equal(tableInDoc(withTable(doc, '| a |')), '| a |');
  });
});
