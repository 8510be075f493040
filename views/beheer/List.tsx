/**
 * A form's submissions (docs/beheer.md §4): a plain GET form to search and filter, the list newest
 * first, 50 a page, the next page by a link, and the export of what the filters select.
 */
import { Beheer, type Account } from './parts.js';

/** A filter of the list: a choice field, with its options. */
export interface ListFilter {
  name: string;
  label: string;
  options: Readonly<Record<string, string>>;
  /** The option chosen, or ''. */
  value: string;
}

/** Props of {@link List}. */
export interface ListProps {
  account: Account;
  form: { name: string; title: string; answerable: boolean; searchable: boolean };
  /** The column headings, the date's last. */
  columns: readonly string[];
  /** Each submission: its id, its cells, when it came, and whether it was answered. */
  rows: ReadonlyArray<{ id: string; cells: readonly string[]; at: string; answered?: boolean }>;
  query: { q: string; van: string; tot: string; beantwoord: string };
  filters: readonly ListFilter[];
  /** The query string of the next page, when there is one; of the export. */
  next?: string;
  exportQuery: string;
}

/** The list page. */
export function List({ account, form, columns, rows, query, filters, next, exportQuery }: ListProps) {
  return (
    <Beheer account={account}>
      <h1>{form.title}: inzendingen</h1>
      <form method="get" action={`/beheer/${form.name}`} className="beheer-filters">
        {form.searchable && (
          <p>
            <label htmlFor="q">Zoek op naam of e-mailadres</label>
            <br />
            <input id="q" name="q" type="search" defaultValue={query.q} />
          </p>
        )}
        {filters.map((filter) => (
          <p key={filter.name}>
            <label htmlFor={`f-${filter.name}`}>{filter.label}</label>
            <br />
            <select id={`f-${filter.name}`} name={filter.name} defaultValue={filter.value}>
              <option value="">Alle</option>
              {Object.entries(filter.options).map(([value, label]) => (
                <option key={value} value={value}>
                  {label}
                </option>
              ))}
            </select>
          </p>
        ))}
        {form.answerable && (
          <p>
            <label htmlFor="beantwoord">Beantwoord</label>
            <br />
            <select id="beantwoord" name="beantwoord" defaultValue={query.beantwoord}>
              <option value="">Alle</option>
              <option value="ja">Beantwoord</option>
              <option value="nee">Niet beantwoord</option>
            </select>
          </p>
        )}
        <p>
          <label htmlFor="van">Vanaf (datum)</label>
          <br />
          <input id="van" name="van" type="date" defaultValue={query.van} />
        </p>
        <p>
          <label htmlFor="tot">Tot en met (datum)</label>
          <br />
          <input id="tot" name="tot" type="date" defaultValue={query.tot} />
        </p>
        <button type="submit">Toon</button>
      </form>
      <p>
        <a href={`/beheer/${form.name}/export${exportQuery}`} download>
          Download deze lijst als CSV
        </a>
      </p>
      {rows.length === 0 ? (
        <p>Geen inzendingen gevonden.</p>
      ) : (
        <table>
          <caption>Inzendingen, nieuwste eerst</caption>
          <thead>
            <tr>
              {columns.map((column) => (
                <th key={column} scope="col">
                  {column}
                </th>
              ))}
              {form.answerable && <th scope="col">Beantwoord</th>}
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={row.id}>
                {row.cells.map((cell, index) =>
                  index === 0 ? (
                    <th key={index} scope="row">
                      <a href={`/beheer/${form.name}/${row.id}`}>{cell || '(leeg)'}</a>
                    </th>
                  ) : (
                    <td key={index}>{cell}</td>
                  ),
                )}
                <td>{row.at}</td>
                {form.answerable && <td>{row.answered ? 'ja' : 'nee'}</td>}
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {next !== undefined && (
        <p>
          <a href={`/beheer/${form.name}${next}`} rel="next">
            Volgende 50
          </a>
        </p>
      )}
    </Beheer>
  );
}
