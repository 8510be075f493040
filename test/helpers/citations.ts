/**
 * What a comment or document cites, and which of its citations do not hold. The contract is
 * `docs/`: numbered sections `## §N Title` in each `docs/<file>.md` (docs/README.md). A text may
 * cite:
 *
 * - a section with its file, `docs/<file>.md §N` (lists and ranges: `§1, §3–§5`); inside docs/
 *   also `<file>.md §N` and the link `[<file>.md §N](<file>.md)`, and a bare `§N` for a section
 *   of the same document;
 * - a heading of a markdown file by its text: `README "Heading"`, `ARCHITECTURE.md, "Heading"`;
 * - a repository file, in markdown: a relative link `[x](path)`, or a backticked path to a file;
 * - a section of a standard, outside this repository: `RFC 9112 §3.2`, `<https URL> §3.2`.
 *
 * Each of these must name what exists, and a `§N` of the contract must say its file (in code a
 * bare `§12` survives renumbering unnoticed). Each fault is one message, prefixed by its kind:
 * `bare`, `section`, `link`, `heading` or `path`.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { posix } from 'node:path';

/** What the checks ask of the repository; paths are relative to its root, with `/`. */
export interface Repository {
  /** The `## §N` numbers of a document, or undefined when there is no such file. */
  sections(path: string): ReadonlySet<number> | undefined;
  /** The headings of a markdown file (`§N Title` also as `Title`), or undefined when there is none. */
  headings(path: string): ReadonlySet<string> | undefined;
  /** Whether a file or folder is there, or would be generated there (git ignores it). */
  exists(path: string): boolean;
}

/** A list of sections: `§1`, `§3–§5`, `§3–5`, `§1, §4`. */
const LIST = String.raw`§\d+(?:–§?\d+)?(?:,\s+§\d+(?:–§?\d+)?)*`;
/** A file name in docs/. */
const DOC = String.raw`[a-z][\w-]*\.md`;

/** The section numbers of a list, ranges spelled out. */
function numbers(list: string): number[] {
  return [...list.matchAll(/§(\d+)(?:–§?(\d+))?/g)].flatMap(([, from, to]) => {
    const found: number[] = [];
    for (let n = Number(from); n <= Number(to ?? from); n++) found.push(n);
    return found;
  });
}

/**
 * The citations in a text that do not hold.
 * @param file the text's path from the root, e.g. `src/app.ts` (decides how it may cite)
 * @returns e.g. `line 3: bare: §12 without its file (docs/<file>.md §12)`
 */
export function badCitations(file: string, text: string, repo: Repository): string[] {
  const markdown = file.endsWith('.md');
  const inDocs = markdown && posix.dirname(file) === 'docs';
  const dir = posix.dirname(file);
  // Comment and line breaks read as spaces (a citation may wrap), offsets kept for line numbers.
  let flat = text.replace(/\n[ \t]*(?:(?:\*|\/\/|#)(?=[ \t\n]|$))?[ \t]*/g, (gap) => ' '.repeat(gap.length));
  const bad: [number, string][] = [];
  const report = (at: number, message: string) => bad.push([at, message]);
  const scan = (pattern: string, each: (m: RegExpMatchArray, at: number) => void) => {
    for (const m of flat.matchAll(new RegExp(pattern, 'g'))) {
      each(m, m.index);
      flat = flat.slice(0, m.index) + ' '.repeat(m[0].length) + flat.slice(m.index + m[0].length);
    }
  };
  const cite = (at: number, doc: string, list = '') => {
    const known = repo.sections(doc);
    if (!known) return report(at, `section: ${doc} is not there`);
    for (const n of numbers(list)) if (!known.has(n)) report(at, `section: ${doc} has no §${n}`);
  };
  const resolve = (path: string) => posix.normalize(markdown && !path.startsWith('docs/') ? posix.join(dir, path) : path);

  if (markdown) {
    scan(String.raw`\[((?:docs/)?${DOC})\s+(${LIST})\]\(([^)\s]+)\)`, ([, named, list, target], at) => {
      cite(at, resolve(named!), list);
      if (resolve(target!.replace(/#.*/, '')) !== resolve(named!)) report(at, `link: [${named} …] goes to ${target}`);
    });
  }
  scan(String.raw`(?<![\w/.-])docs/(${DOC})(\s+${LIST})?`, ([, name, list], at) => cite(at, `docs/${name}`, list));
  if (inDocs) scan(String.raw`(?<![\w/.-])(${DOC})\s+(${LIST})`, ([, name, list], at) => cite(at, `docs/${name}`, list));
  scan(String.raw`(?:\bRFC\s+\d+|https?://\S+)\s+§\d+(?:\.\d+)*`, () => {});
  scan(String.raw`${LIST}`, ([list], at) => {
    if (inDocs) cite(at, file, list);
    else report(at, `bare: ${list} without its file (docs/<file>.md ${list})`);
  });

  // Headings by their text: README "Logs", ARCHITECTURE.md, "Layout", (README: deploy).
  const heading = (at: number, named: string, title: string) => {
    const path = /\.md$/.test(named) ? resolve(named) : `${named}.md`;
    const titles = repo.headings(path);
    if (!titles) report(at, `heading: ${path} is not there`);
    else if (!titles.has(title.trim())) report(at, `heading: ${path} has no heading "${title.trim()}"`);
  };
  const NAMED = String.raw`(?<![\w/.-])((?:[\w-]+/)*[\w-]+\.md|README|ARCHITECTURE)`;
  scan(String.raw`${NAMED}[,:]?[ \t]+["“]([^"”\n]+)["”]`, ([, named, title], at) => heading(at, named!, title!));
  scan(String.raw`\(${NAMED}:\s*([^)"“]+)\)`, ([, named, title], at) => heading(at, named!, title!));

  if (markdown) {
    // Relative links, and backticked paths to files.
    scan(String.raw`\]\(([^)\s]+)\)`, ([, target], at) => {
      if (/^[a-z][a-z+.-]*:|^#/i.test(target!)) return;
      const path = resolve(decodeURI(target!.replace(/#.*/, '')));
      if (!repo.exists(path)) report(at, `path: ${target} is not there`);
    });
    scan(String.raw`\`([\w-][\w.@-]*(?:/[\w.@-]+)+\.\w+)\``, ([, path], at) => {
      if (!repo.exists(path!) && !repo.exists(posix.join(dir, path!))) report(at, `path: ${path} is not there`);
    });
  }

  return bad.sort(([a], [b]) => a - b).map(([at, message]) => `line ${text.slice(0, at).split('\n').length}: ${message}`);
}

/**
 * The working tree as it is: tracked and new files, git-ignored ones (generated) counted as there.
 * @param root the repository's root
 */
export function workingTree(root = '.'): Repository & { files: string[] } {
  const git = (...args: string[]) => execFileSync('git', ['-C', root, ...args], { encoding: 'utf8' });
  const files = git('ls-files', '--cached', '--others', '--exclude-standard')
    .split('\n')
    .filter((path) => path && existsSync(posix.join(root, path)));
  const texts = new Map<string, string | undefined>();
  const read = (path: string) => {
    if (!texts.has(path)) texts.set(path, path.endsWith('.md') && existsSync(posix.join(root, path)) ? readFileSync(posix.join(root, path), 'utf8') : undefined);
    return texts.get(path);
  };
  const ignored = (path: string) => {
    try {
      git('check-ignore', '-q', '--no-index', path);
      return true;
    } catch {
      return false;
    }
  };
  return {
    files,
    sections: (path) => {
      const text = read(path);
      return text === undefined ? undefined : new Set([...text.matchAll(/^## §(\d+) /gm)].map((m) => Number(m[1])));
    },
    headings: (path) => {
      const text = read(path);
      if (text === undefined) return undefined;
      const titles = [...text.matchAll(/^#{1,6}[ \t]+(.+?)[ \t]*$/gm)].map((m) => m[1]!);
      return new Set([...titles, ...titles.map((title) => title.replace(/^§\d+ /, ''))]);
    },
    exists: (path) => !path.startsWith('..') && (existsSync(posix.join(root, path)) || ignored(path)),
  };
}
