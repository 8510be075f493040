/**
 * A list as CSV (docs/beheer.md §6): written with csv-stringify, UTF-8 with a BOM, `;` between
 * cells and CRLF between rows so that Excel in Dutch opens it in columns, RFC 4180 quoting, and
 * every cell that begins with `=`, `+`, `-`, `@`, a tab or a CR neutralised with a leading `'`
 * (OWASP's CSV injection guidance). Streamed a page of rows at a time: memory stays flat.
 */
import { once } from 'node:events';
import type { Writable } from 'node:stream';
import { stringify } from 'csv-stringify';

/** Cells a spreadsheet would read as a formula. */
const FORMULA = /^[=+\-@\t\r]/;

/**
 * A cell as a spreadsheet must take it: text, never a formula.
 * @param value a stored value (a list joined with `, `)
 */
export function neutralised(value: string): string {
  return FORMULA.test(value) ? `'${value}` : value;
}

/**
 * Writes a CSV to a stream, pulling its rows page by page; the stream is left open.
 * @param out the response
 * @param header the column headings
 * @param pages yields rows, each a list of cells, a page at a time
 * @returns the rows written
 */
export async function writeCsv(out: Writable, header: readonly string[], pages: AsyncIterable<ReadonlyArray<readonly string[]>>): Promise<number> {
  const csv = stringify({ delimiter: ';', record_delimiter: '\r\n', bom: true, quoted_match: /[";\r\n]/ });
  // The caller ends the answer: what it records of the export is written before the client has it all.
  csv.pipe(out, { end: false });
  // A client gone mid-download ends the writing: the rows are not read on for no one.
  out.once('close', () => csv.writableEnded || csv.destroy(new Error('The client closed the download')));
  const write = async (cells: readonly string[]) => {
    if (!csv.write(cells.map(neutralised))) await once(csv, 'drain');
  };
  let rows = 0;
  await write(header);
  for await (const page of pages) {
    for (const cells of page) await write(cells);
    rows += page.length;
  }
  csv.end();
  await once(csv, 'end');
  return rows;
}
