/**
 * The folder map of ARCHITECTURE.md "Layout" against the tree (test/docs.test.ts): every folder
 * of the code, the build, the scripts and the tests has its line, and every line names a folder
 * (or a file) that is there. The map is the section's code block: a line that starts with a path
 * (a folder's ends in `/`) is an entry, the indented lines after it continue its concern.
 */
import { fenced, titled } from './markdown.js';

/** The folders whose every folder, however deep, the map names. */
export const MAPPED_ROOTS = ['src', 'islands', 'views', 'protocol', 'build', 'scripts', 'test'] as const;

/** An entry of the map: a folder (`src/storage/`) or a file (`src/app.ts`), and its concern. */
export interface LayoutEntry {
  path: string;
  concern: string;
}

/**
 * The entries of the map, in order.
 * @param architecture the whole of ARCHITECTURE.md
 * @throws RangeError when there is no "Layout" section or no code block in it, or the block
 *   begins with a continuation line
 * @example layoutEntries('## Layout\n```\nsrc/   the server,\n       in parts\n```\n') // [{ path: 'src/', concern: 'the server, in parts' }]
 */
export function layoutEntries(architecture: string): LayoutEntry[] {
  const entries: LayoutEntry[] = [];
  for (const line of fenced(titled(architecture, 'Layout'))) {
    if (line.trim() === '') continue;
    if (/^\s/.test(line)) {
      const last = entries.at(-1);
      if (last === undefined) throw new RangeError(`The layout's code block begins with a continuation line: "${line.trim()}"`);
      last.concern = `${last.concern} ${line.trim()}`.trim();
      continue;
    }
    const [path = '', ...concern] = line.split(/\s+/);
    entries.push({ path, concern: concern.join(' ') });
  }
  return entries;
}

/** Every folder that holds a file of the list, at any depth, as `a/b/`. */
function foldersOf(files: readonly string[]): Set<string> {
  const folders = new Set<string>();
  for (const file of files) {
    const parts = file.split('/');
    for (let depth = 1; depth < parts.length; depth++) folders.add(`${parts.slice(0, depth).join('/')}/`);
  }
  return folders;
}

/**
 * What the map gets wrong against the tree, one sentence a fault: a folder of a mapped root it
 * leaves out, an entry that names no folder or file of the tree, an entry without its concern, a
 * path named twice.
 * @param entries the map's entries (see {@link layoutEntries})
 * @param files the tree's files, relative to the root with `/` (git's list)
 * @returns the faults, the entries' first and the left-out folders' in the tree's order after
 */
export function layoutFaults(entries: readonly LayoutEntry[], files: readonly string[]): string[] {
  const folders = foldersOf(files);
  const tracked = new Set(files);
  const named = new Map<string, number>();
  const faults: string[] = [];
  for (const { path, concern } of entries) {
    named.set(path, (named.get(path) ?? 0) + 1);
    const folder = path.endsWith('/');
    if (!(folder ? folders.has(path) : tracked.has(path))) faults.push(`${path} is in ARCHITECTURE.md "Layout", but the tree has no such ${folder ? 'folder' : 'file'}`);
    else if (concern === '') faults.push(`${path} is in ARCHITECTURE.md "Layout" without a line on its concern`);
  }
  for (const [path, count] of named) if (count > 1) faults.push(`${path} is in ARCHITECTURE.md "Layout" ${count} times`);
  const mapped = [...folders].filter((folder) => (MAPPED_ROOTS as readonly string[]).includes(folder.split('/')[0]!)).sort();
  for (const folder of mapped) if (!named.has(folder)) faults.push(`${folder} is a folder of the tree, but ARCHITECTURE.md "Layout" has no line on it`);
  return faults;
}
