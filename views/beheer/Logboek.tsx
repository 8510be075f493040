/**
 * The audit log (docs/beheer.md §7): who did what, when, from which address; ids only.
 */
import { Beheer, type Account } from './parts.js';

/** Props of {@link Logboek}. */
export interface LogboekProps {
  account: Account;
  entries: ReadonlyArray<{ id: string; at: string; who: string; action: string; about: string; address: string }>;
  /** The query string of the older entries, when there are any. */
  next?: string;
}

/** The audit log page, newest first. */
export function Logboek({ account, entries, next }: LogboekProps) {
  return (
    <Beheer account={account}>
      <h1>Logboek</h1>
      <table>
        <caption>Wat er in beheer is gedaan, nieuwste eerst</caption>
        <thead>
          <tr>
            <th scope="col">Wanneer</th>
            <th scope="col">Wie</th>
            <th scope="col">Wat</th>
            <th scope="col">Waarover</th>
            <th scope="col">Adres</th>
          </tr>
        </thead>
        <tbody>
          {entries.map((entry) => (
            <tr key={entry.id}>
              <td>{entry.at}</td>
              <td>{entry.who}</td>
              <td>{entry.action}</td>
              <td>{entry.about}</td>
              <td>{entry.address}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {next !== undefined && (
        <p>
          <a href={`/beheer/logboek${next}`} rel="next">
            Oudere regels
          </a>
        </p>
      )}
    </Beheer>
  );
}
