/**
 * Raw HTTP requests over TCP (docs/qa-kit.md §1): the request target exactly as given (fetch
 * would normalise the very paths these tests need), from a loopback address of the test's
 * choosing; the shape of what they answer, which in-process requests (test/helpers/inject.ts)
 * share; and the free ports of programs a test starts. Re-exported by test/helpers/app.ts.
 */
import { send } from './inject.js';

/** A raw response: the status, the headers as Node's client parsed them, the body as UTF-8. */
export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** Every header line, name lowercased, in the order it came (for tests that compare answers line by line). */
  headerLines: Array<[string, string]>;
  body: string;
}

/** Options of {@link raw}. */
export interface RawOptions {
  method?: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** Local loopback address to send from, e.g. `127.0.0.7` (rate limits are per address). */
  from?: string;
}

let lastAddress = 1;
/**
 * A loopback address no other request of this test process has used yet, for a test of its own
 * under the per-address rate limits (docs/forms.md §7).
 * @returns an address in 127.0.0.0/8, e.g. `127.0.0.4`
 */
export function freshAddress(): string {
  lastAddress += 1;
  return `127.0.${Math.floor(lastAddress / 250)}.${(lastAddress % 250) + 2}`;
}

/**
 * Sends one request with the path exactly as given (no normalisation).
 * @param port the app's port on 127.0.0.1
 * @param path request target, e.g. `/assets/%2e%2e/over` or `http://evil.example/`
 * @param options method, headers, body, and `from`: the loopback address to send from
 * @returns status, headers and the body as UTF-8
 * @throws the client's error when the connection closes without an answer
 */
export function raw(port: number, path: string, { method = 'GET', headers = {}, body, from }: RawOptions = {}): Promise<RawResponse> {
  return send({ host: '127.0.0.1', port, path, method, headers, agent: false, localAddress: from }, body);
}

/**
 * The text of the first element of a tag in an HTML body, its inner tags left out.
 * @param html a page, e.g. a raw response's body
 * @param tag a tag name, e.g. `h1`
 * @returns its inner text, or undefined when there is no such element
 */
export function textOf(html: string, tag: string): string | undefined {
  const m = new RegExp(`<${tag}(?:\\s[^>]*)?>([\\s\\S]*?)</${tag}>`).exec(html);
  return m?.[1]?.replace(/<[^>]+>/g, '');
}

/** A free TCP port on 127.0.0.1, for a program the test starts (nginx, PostgreSQL): the scripts' own. */
export { freePort } from '../../scripts/started-port.mjs';
