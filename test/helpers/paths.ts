/**
 * The two paths of a request (docs/streaming.md §7): which one answered each request of a server
 * (the fast path beside Express, or Express), and answers read as they went over the wire, for the
 * tests that compare the paths.
 */
import assert from 'node:assert/strict';
import { IncomingMessage, type Server } from 'node:http';
import { CSRF_FIELD, SUBMISSION_FIELD } from '../../protocol/forms.js';
import type { SuiteTestApp } from './app.js';
import { raw } from './raw.js';

/** An answer as it went over the wire. */
export interface Answer {
  status: number;
  /** Every header line, name lowercased, in order. */
  headers: Array<[string, string]>;
  body: string;
  /** Whether Express answered it: its request then has Express's prototype. */
  viaExpress: boolean;
}

/** Which path answered each request of a server, by its `x-test` header. */
export function watchPaths(server: Server): Map<string, boolean> {
  const paths = new Map<string, boolean>();
  server.on('request', (req: IncomingMessage, res) => res.once('finish', () => paths.set(String(req.headers['x-test']), Object.getPrototypeOf(req) !== IncomingMessage.prototype)));
  return paths;
}

let asked = 0;
/**
 * Sends one request over TCP with {@link raw} (a GET unless told), tagged so that `paths` tells
 * which path answered it, and reads the answer whole, its header lines as they came.
 */
export async function get(app: SuiteTestApp, paths: Map<string, boolean>, path: string, headers: Record<string, string>, method = 'GET'): Promise<Answer> {
  const tag = `t${++asked}`;
  const { status, headerLines, body } = await raw(app.port, path, { method, headers: { ...headers, 'x-test': tag } });
  // The server's 'finish' comes before the client has read the end.
  await new Promise((resolve) => setImmediate(resolve));
  return { status, headers: headerLines, body, viaExpress: paths.get(tag)! };
}

/**
 * An answer with its request's own values written as their names: its request id, nonce, a form's
 * CSRF token and submission key, its cookies' values and its ETag (a digest of those); its date
 * left out.
 */
export function shape(answer: Answer): { status: number; headers: Array<[string, string]>; body: string } {
  const requestId = answer.headers.find(([name]) => name === 'x-request-id')?.[1];
  const nonce = /'nonce-([^']+)'/.exec(answer.headers.find(([name]) => name === 'content-security-policy')?.[1] ?? '')?.[1];
  assert.ok(requestId && nonce, 'a page answer carries its request id and nonce');
  const own: Array<[string, string]> = [
    [requestId, '{requestId}'],
    [nonce, '{nonce}'],
  ];
  for (const field of [CSRF_FIELD, SUBMISSION_FIELD]) {
    // In HTML, or escaped in page data's JSON.
    const value = new RegExp(`name=\\\\?"${field}\\\\?" value=\\\\?"([^"\\\\]+)`).exec(answer.body)?.[1];
    if (value) own.push([value, `{${field}}`]);
  }
  const named = (text: string) => own.reduce((out, [value, name]) => out.split(value).join(name), text);
  const headers = answer.headers
    .filter(([name]) => name !== 'date')
    .map(([name, value]): [string, string] => [name, name === 'set-cookie' ? value.replace(/=[^;]*/, '={value}') : name === 'etag' ? '{etag}' : named(value)]);
  return { status: answer.status, headers, body: named(answer.body) };
}
