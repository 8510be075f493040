/**
 * Beheer's start (docs/beheer.md §4): every form with its totals.
 */
import { Beheer, type Account } from './parts.js';

/** A form's line of the overview. */
export interface FormTotals {
  name: string;
  title: string;
  all: number;
  week: number;
  /** Since this account last looked at its list. */
  fresh: number;
}

/** The overview. */
export function Overview({ account, forms }: { account: Account; forms: readonly FormTotals[] }) {
  return (
    <Beheer account={account}>
      <h1>Beheer</h1>
      <table>
        <caption>Inzendingen per formulier</caption>
        <thead>
          <tr>
            <th scope="col">Formulier</th>
            <th scope="col">Totaal</th>
            <th scope="col">Laatste 7 dagen</th>
            <th scope="col">Nieuw sinds je laatste bezoek</th>
          </tr>
        </thead>
        <tbody>
          {forms.map((form) => (
            <tr key={form.name}>
              <th scope="row">
                <a href={`/beheer/${form.name}`}>{form.title}</a>
              </th>
              <td>{form.all}</td>
              <td>{form.week}</td>
              <td>{form.fresh}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </Beheer>
  );
}
