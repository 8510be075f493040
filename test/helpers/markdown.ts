/**
 * The parts of a document that the checks of its lists read (test/docs.test.ts): a numbered
 * section of docs/ or a titled one (ARCHITECTURE.md), a bullet of it, its tables' rows, its code
 * spans and code block. Each throws when what it looks for is not there, so a list that was moved
 * or reworded fails its check instead of passing as empty.
 */

/** The text from the first heading a pattern finds up to the next `## ` heading. */
function sectionFrom(markdown: string, heading: RegExp, name: string): string {
  const start = markdown.search(heading);
  if (start < 0) throw new RangeError(`No section "${name}"`);
  const rest = markdown.slice(start + 1);
  const end = rest.search(/^## /m);
  return end < 0 ? rest : rest.slice(0, end);
}

/**
 * The text of a section `## §N …`, up to the next `## ` heading.
 * @param markdown a whole document
 * @param n the section's number
 * @throws RangeError when the document has no such section
 */
export function section(markdown: string, n: number): string {
  return sectionFrom(markdown, new RegExp(`^## §${n} `, 'm'), `## §${n}`);
}

/**
 * The text of a section `## Title` (a document without numbered sections, e.g. ARCHITECTURE.md),
 * up to the next `## ` heading.
 * @param markdown a whole document
 * @param title the whole heading, e.g. `Layout`
 * @throws RangeError when the document has no such section
 */
export function titled(markdown: string, title: string): string {
  return sectionFrom(markdown, new RegExp(`^## ${title.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`, 'm'), `## ${title}`);
}

/**
 * The lines of the first fenced code block of a text, without its fences.
 * @param text a section
 * @throws RangeError when the text has no closed code block
 */
export function fenced(text: string): string[] {
  const found = /^```[^\n]*\n([^]*?)^```$/m.exec(text);
  if (!found) throw new RangeError('No code block');
  return found[1]!.split('\n').slice(0, -1);
}

/**
 * The whole top-level bullet (`- …` with its continuation lines and nested bullets) that contains
 * a phrase.
 * @param text a section
 * @param phrase words of the bullet, e.g. `site navigation`
 * @throws RangeError when no bullet contains the phrase
 */
export function bullet(text: string, phrase: string): string {
  const bullets = text.split(/^(?=- )/m).map((part) => part.split(/\n(?=\S)/)[0]!);
  const found = bullets.find((b) => b.startsWith('- ') && b.includes(phrase));
  if (found === undefined) throw new RangeError(`No bullet with "${phrase}"`);
  return found;
}

/**
 * The body rows of every table in a text, each as its cells, trimmed (header and separator rows
 * left out).
 * @param text a section
 */
export function tableRows(text: string): string[][] {
  const rows: string[][] = [];
  let table: string[] = [];
  for (const line of [...text.split('\n'), '']) {
    if (line.startsWith('|')) {
      table.push(line);
      continue;
    }
    // A table ends: its header and separator, then its body.
    rows.push(...table.slice(2).map((row) => row.slice(1, -1).split('|').map((cell) => cell.trim())));
    table = [];
  }
  return rows;
}

/**
 * The contents of the code spans of a text, in order: `` `/over` `` → `/over`.
 * @param text any Markdown
 */
export function codeSpans(text: string): string[] {
  return [...text.matchAll(/`([^`]+)`/g)].map((m) => m[1]!);
}

/**
 * The text between a phrase and the first `close` after it, e.g. what a parenthesis lists.
 * @param text any Markdown
 * @param phrase its words; white space in it matches any white space, line breaks included
 * @param close the character that ends the list, e.g. `)` or `;`
 * @throws RangeError when the phrase is not there or nothing closes it
 * @example between('every page (`/`, `/over`)', 'every page (', ')') // '`/`, `/over`'
 */
export function between(text: string, phrase: string, close: string): string {
  const pattern = new RegExp(phrase.split(/\s+/).map((word) => word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('\\s+'));
  const found = pattern.exec(text);
  const end = found ? text.indexOf(close, found.index + found[0].length) : -1;
  if (!found || end < 0) throw new RangeError(`No "${phrase} … ${close}"`);
  return text.slice(found.index + found[0].length, end);
}
