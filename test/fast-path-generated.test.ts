/**
 * The fast path held to the Express path by generated requests (docs/streaming.md §7): fast-check
 * makes requests of every kind (methods, targets and their variations, every kind of `Host`,
 * forwarded headers, request ids, trace context, cookies, user agents, the page-data marker,
 * bodies), and each goes, as raw bytes on a kept-alive connection (in-process: the connection is not
 * the subject), to an app with the fast path and to one whose Express path answers everything, both
 * on one storage. Their answers must be the
 * same: status, every header line in order, body, log lines and every metric's change, with what is
 * each request's own (request id, nonce, date, CSRF cookies and token, submission key, a rate
 * limit's count and time) written as its name. A second pair runs with `PUBLIC_ORIGIN`.
 *
 * A failure prints fast-check's report (the seed, the path of the shrunk case, the case), the
 * difference, and the command that replays exactly that case:
 *   FC_SEED=<seed> FC_PATH=<path> node --import tsx --import ./src/env.ts --test test/fast-path-generated.test.ts
 * FC_SEED alone replays the whole run; FC_RUNS sets how many cases run.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { IncomingMessage, type ServerResponse } from 'node:http';
import { after, before, describe, it } from 'node:test';
import type { RequestHandler } from 'express';
import fc from 'fast-check';
import { Counter, Histogram, type Metric } from 'prom-client';
import { CLIENT_ERRORS_PATH } from '../protocol/client-errors.js';
import { REQUEST_ID_PATTERN } from '../protocol/request-id.js';
import { IMAGE_PATH } from '../protocol/image-config.js';
import { fastPathRoute } from '../src/fast-path.js';
import { registrations } from '../src/forms/registration.js';
import { createMetrics, type Metrics } from '../src/metrics/index.js';
import type { AddedStep } from '../src/pipeline.js';
import { siteRoutes } from '../src/routes/pages.js';
import type { Storage } from '../src/storage/types.js';
import { FORMS } from './fixtures/forms.js';
import { useApp, within, type SuiteTestApp } from './helpers/app.js';
import { askedBytes, askedRequests, BROWSER, type Asked, type AskedParts } from './helpers/generated-requests.js';
import { keptAlive, type KeptAlive, type WireAnswer } from './helpers/kept-alive.js';
import type { LogLine } from './helpers/logs.js';
import { REGISTRATION, tempStorage } from './helpers/temp-storage.js';
import { testManifest } from './helpers/test-dist.js';

/** Cases a run: at least 2 000 (docs/streaming.md §7). */
const RUNS = Number(process.env.FC_RUNS ?? 2000);
/** The least share of cases the fast path must answer itself, or the test would compare Express with Express. */
const FAST_SHARE = 0.2;

const PUBLIC_ORIGIN = 'http://eiland.example,https://eiland.example,http://eiland.example:8080';
/** Form posts from one address are limited (docs/forms.md §7): far above what a run posts. */
const env = { RENDER_CACHE_VERIFY: '0', TRUST_PROXY: 'loopback', FORM_RATE_LIMIT: '1000000/1h' };

/** The storage every app shares, with one registration (its confirmation's address is among the paths asked for): made by the app that starts first. */
let made: Promise<{ storage: Storage; registered: string; remove(): Promise<void> }> | undefined;
const shared = () =>
  (made ??= tempStorage().then(async ({ storage, remove }) => {
    const registered = randomUUID();
    await registrations(storage).save(registered, REGISTRATION);
    return { storage, registered, remove };
  }));

/** One app of a pair, with what the test reads of it. */
interface Side {
  app: SuiteTestApp;
  metrics: Metrics;
  wire?: KeptAlive;
  /** The request the app was handed last (none for what Node's server answers itself) and its response's close. */
  last?: { req: IncomingMessage; closed: Promise<void> };
  /** Its metrics after the last request, and how many log lines it had written. */
  sampled?: Sample;
  logged?: number;
}

/** An app with the fast path and one whose Express path answers everything. */
interface Pair {
  fast: Side;
  express: Side;
}

/** Two apps on the shared storage, with extra environment and steps added to both. */
function pair(extra: Record<string, string>, steps: AddedStep[] = []): Pair {
  const side = (fastPath: boolean): Side => {
    const metrics = createMetrics();
    return { app: useApp(async () => ({ storage: (await shared()).storage, metrics, fastPath, steps }), { ...env, ...extra }), metrics };
  };
  return { fast: side(true), express: side(false) };
}

const pairs: Record<Asked['site'], Pair> = { open: pair({}), public: pair({ PUBLIC_ORIGIN }) };

/**
 * The control: a step whose declaration for the fast path lies (it says `beside`, Express sets
 * `express`), so that every case the fast path answers differs.
 */
const setProef: RequestHandler = function setProef(_req, res, next) {
  res.setHeader('X-Proef', 'express');
  next();
};
const LYING: AddedStep = { after: 'filter', step: { name: 'lying', handler: setProef, beside: { kind: 'headers', lines: () => ['X-Proef', 'beside'] } } };
const lying = pair({}, [LYING]);
// Registered after the apps: their hooks close them first.
after(async () => {
  const { storage, remove } = await shared();
  await storage.close();
  await remove();
});

/** Each metric's values by its labels. */
type Sample = Map<string, Map<string, number>>;

/**
 * Every metric's value by name and labels; of a histogram (the request durations) only each label
 * set's count, its buckets and sum being times. Counters and histograms are read from prom-client's
 * own table (`hashMap`, keyed by the labels): `get()` spells out every bucket of every label set,
 * which cost more than the requests themselves. Gauges are computed when read (`get()`).
 */
async function sample(metrics: Metrics): Promise<Sample> {
  const values: Sample = new Map();
  for (const metric of metrics.registry.getMetricsAsArray() as unknown as Metric[]) {
    const byLabels = new Map<string, number>();
    if (metric instanceof Counter || metric instanceof Histogram) {
      const table = (metric as unknown as { hashMap?: Record<string, { value?: number; count?: number }> }).hashMap;
      assert.ok(table, "prom-client keeps a metric's label sets in hashMap");
      for (const labels in table) byLabels.set(labels, metric instanceof Counter ? table[labels]!.value! : table[labels]!.count!);
    } else {
      for (const { labels, value } of (await metric.get()).values) byLabels.set(JSON.stringify(labels), value);
    }
    values.set((metric as unknown as { name: string }).name, byLabels);
  }
  return values;
}

/** What changed between two samples: each metric that moved, by how much. */
function change(before: Sample, after: Sample): Record<string, number> {
  const moved: Record<string, number> = {};
  for (const [name, values] of after) {
    const was = before.get(name);
    for (const [labels, value] of values) {
      const by = value - (was?.get(labels) ?? 0);
      if (by !== 0) moved[`${name}{${labels}}`] = by;
    }
  }
  return moved;
}

/** What one app did with one request. */
interface Seen {
  answer: WireAnswer;
  /** Whether Express answered it (its request then has Express's prototype); undefined when Node's server did. */
  viaExpress?: boolean;
  logs: LogLine[];
  metrics: Record<string, number>;
}

/** Opens a side's connection and watches the requests its server hands the app. */
function watch(s: Side): void {
  s.wire = keptAlive(s.app.server);
  s.app.server.maxHeadersCount = 0; // as src/server.ts: every header line reaches the app
  // Over TCP, a connection idle while the machine is busy elsewhere is not closed under the next request.
  s.app.server.keepAliveTimeout = 60_000;
  s.app.server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    s.last = { req, closed: new Promise((resolve) => res.once('close', () => resolve())) };
  });
}

/** Sends a request to one app and waits for its response to close: its log line and metrics are written by then. */
async function ask(s: Side, asked: Asked): Promise<Seen> {
  // Where the last request left them: nothing else runs between two requests to an app.
  const lines = s.logged ?? s.app.rawLogs().length;
  const before = s.sampled ?? (await sample(s.metrics));
  s.last = undefined;
  const answer = await s.wire!.send(askedBytes(asked), asked.method === 'HEAD');
  // The app was handed the request before any byte of its answer went out, or never.
  const handled = s.last as Side['last'];
  if (handled) await within(handled.closed, 5000, 'the close of the response');
  await new Promise((resolve) => setImmediate(resolve));
  s.sampled = await sample(s.metrics);
  const logs = s.app.rawLogs(lines).map((line) => JSON.parse(line) as LogLine);
  s.logged = lines + logs.length;
  return { answer, viaExpress: handled && Object.getPrototypeOf(handled.req) !== IncomingMessage.prototype, logs, metrics: change(before, s.sampled) };
}

/**
 * The values that are each response's own, found in its head, body and log line: value → the name
 * written instead. A request id the request brought and the server kept is the request's, not the
 * response's: it stays as it is, so a path that made up another would show.
 */
function ownValues({ answer, logs }: Seen, asked: Asked): Map<string, string> {
  const text = answer.body.toString('utf8');
  const header = (name: string) => answer.headers.filter(([n]) => n === name).map(([, v]) => v);
  const sent = asked.headers.filter(([name]) => name.toLowerCase() === 'x-request-id').map(([, value]) => value);
  const brought = sent.length === 1 && REQUEST_ID_PATTERN.test(sent[0]!) ? sent[0] : undefined;
  const made = (id: string | undefined) => (id === brought ? undefined : id);
  const found: Array<[string | undefined, string]> = [
    [made(logs.find((l) => typeof l.reqId === 'string')?.reqId as string | undefined), '{requestId}'],
    [made(header('x-request-id')[0]), '{requestId}'],
    [/'nonce-([^']+)'/.exec(header('content-security-policy')[0] ?? '')?.[1], '{nonce}'],
    [/name="_csrf" value="([^"]+)"/.exec(text)?.[1], '{csrfToken}'],
    [/name="_submission" value="([^"]+)"/.exec(text)?.[1], '{submissionKey}'],
    // Page data carries them as JSON (docs/navigation.md §1).
    [/"csrfToken":"([^"\\]+)"/.exec(text)?.[1], '{csrfToken}'],
    [/"submissionKey":"([^"\\]+)"/.exec(text)?.[1], '{submissionKey}'],
    ...header('set-cookie').map((cookie): [string | undefined, string] => {
      const [, name, value] = /^([^=]+)=([^;]*)/.exec(cookie) ?? [];
      return [value, `{cookie ${name}}`];
    }),
  ];
  // Longest first: a cookie may hold the token.
  return new Map(found.filter((f): f is [string, string] => f[0] !== undefined && f[0].length >= 8).sort(([a], [b]) => b.length - a.length));
}

/** A text with each of a response's own values written as its name, in one pass. */
function named(text: string, values: Map<string, string>): string {
  if (values.size === 0) return text;
  const any = new RegExp([...values.keys()].map((value) => value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|'), 'g');
  return text.replace(any, (value) => values.get(value)!);
}

/**
 * The answer with its own values named; the date, a rate limit's count and its seconds left are the
 * clock's. So is the `ETag` of an answer that passed the filter (it has a request id): Express hashes
 * a body that holds the request's own values (page data, a page sent with `res.send`); a file's is kept.
 */
function shape(seen: Seen, asked: Asked) {
  const values = ownValues(seen, asked);
  const filtered = seen.answer.headers.some(([name]) => name === 'x-request-id');
  const headers = seen.answer.headers.map(([name, value]): [string, string] => {
    if (name === 'date') return [name, '{date}'];
    if (name === 'etag' && filtered) return [name, '{etag}'];
    if (name === 'ratelimit') return [name, value.replace(/;(\s*)r=\d+/, ';$1r={remaining}').replace(/;(\s*)t=\d+/, ';$1t={seconds}')];
    if (name === 'retry-after') return [name, '{seconds}'];
    return [name, named(value, values)];
  });
  const logs = seen.logs.map(({ time: _time, reqId: _reqId, responseTime: _responseTime, ...line }) => JSON.parse(named(JSON.stringify(line), values)) as unknown);
  return { status: seen.answer.status, headers, body: named(seen.answer.body.toString('utf8'), values), logs, metrics: seen.metrics };
}

/**
 * Fails unless two answers have the same shape; a body that differs is shown from its first
 * difference (80 characters of each), as the render cache's verify guard shows one
 * (docs/streaming.md §6).
 */
function same(fast: Seen, express: Seen, asked: Asked): void {
  const request = askedBytes(asked).toString('latin1');
  const { body: a, ...head } = shape(fast, asked);
  const { body: b, ...expressHead } = shape(express, asked);
  assert.deepEqual(head, expressHead, `the same status, header lines, log lines and metrics for\n${request}`);
  if (a === b) return;
  let at = 0;
  while (a[at] === b[at]) at++;
  assert.fail(`the same body for\n${request}\nfrom offset ${at}:\n  fast path: ${JSON.stringify(a.slice(at, at + 80))}\n  Express:   ${JSON.stringify(b.slice(at, at + 80))}`);
}

/**
 * Runs the property: each generated case to both apps of its site's pair, their answers compared.
 * @returns fast-check's details, and how many cases the fast path answered itself
 */
async function differential(by: Record<Asked['site'], Pair>, parts: AskedParts, params: fc.Parameters<[Asked]>) {
  let fastAnswers = 0;
  const property = fc.asyncProperty(askedRequests(parts), async (asked) => {
    const { fast, express } = by[asked.site];
    const a = await ask(fast, asked);
    const b = await ask(express, asked);
    assert.notEqual(b.viaExpress, false, 'the app without the fast path answers through Express');
    same(a, b, asked);
    if (a.viaExpress === false) fastAnswers += 1;
  });
  return { details: await fc.check(property, params), fastAnswers };
}

/** A failed run's report: fast-check's (seed, path, the shrunk case), the difference, and the command that replays the case. */
async function report(details: fc.RunDetails<[Asked]>): Promise<string> {
  const difference = details.errorInstance instanceof Error ? details.errorInstance.message : String(details.errorInstance);
  const replay = `FC_SEED=${details.seed} FC_PATH=${details.counterexamplePath} node --import tsx --import ./src/env.ts --test test/fast-path-generated.test.ts`;
  return `${await fc.asyncDefaultReportMessage(details)}\n${difference}\n\nReplay this case: ${replay}`;
}

describe('the fast path, held to the Express path by generated requests', () => {
  let parts: AskedParts;
  before(async () => {
    for (const { fast, express } of [...Object.values(pairs), lying]) [fast, express].forEach(watch);
    const routes = siteRoutes(undefined as never, { limit: 1, windowMs: 1000 }, 365, FORMS);
    const manifest = testManifest();
    const { registered } = await shared();
    parts = {
      pages: routes.filter(fastPathRoute).map((route) => route.path),
      paths: [
        ...routes.filter((route) => !fastPathRoute(route)).flatMap((route) => [route.path.replace(':id', registered), route.path.replace(':id', 'niet-bekend')]),
        `/aanmeldingen/${registered}/gegevens`,
        '/healthz',
        '/readyz',
        '/robots.txt',
        '/sitemap.xml',
        CLIENT_ERRORS_PATH,
        '/favicon.ico',
        // Not an image sharp would make: one costs more than a hundred pages, and no image is the fast path's.
        `${IMAGE_PATH}?url=${encodeURIComponent('/assets/images/bestaat-niet.jpg')}&w=640`,
        `${IMAGE_PATH}?url=x`,
        manifest.styles,
        manifest.router.file,
        '/assets/bestaat-niet.js',
        '/niet-gevonden',
      ],
      hosts: { open: ['127.0.0.1:3000', 'localhost', 'eiland.example', '[::1]:3000', 'localhost:8080', ''], public: ['eiland.example', 'eiland.example:8080'] },
      session: { cookie: '', token: '' },
    };
    // A session both apps accept: they share the tests' CSRF secret (docs/filter.md §6).
    const get = (site: Asked['site'], target: string, headers: Array<[string, string]>): Asked => ({ site, method: 'GET', target, version: '1.1', headers, body: '', chunked: false });
    const form = await ask(pairs.open.fast, get('open', '/aanmelden', [['Host', 'eiland.example']]));
    const cookies = form.answer.headers.filter(([name]) => name === 'set-cookie').map(([, value]) => value.split(';')[0]!);
    assert.equal(cookies.length, 2, 'the form page sets the session and token cookies');
    parts.session = { cookie: cookies.join('; '), token: /name="_csrf" value="([^"]+)"/.exec(form.answer.body.toString('utf8'))![1]! };
    // Every page kept in both ways of sending a document, so that the fast path answers from the first case.
    for (const [site, { fast, express }] of [...Object.entries(pairs), ['open', lying]] as Array<[Asked['site'], Pair]>) {
      for (const target of parts.pages) {
        for (const agent of [BROWSER, 'Googlebot/2.1']) {
          const asked = get(site, target, [['Host', parts.hosts[site][0]!], ['User-Agent', agent]]);
          await ask(fast, asked);
          await ask(express, asked);
        }
      }
    }
  });

  it(`answers ${RUNS} generated requests as the Express path does: status, header lines, body, log lines, metrics`, async (t) => {
    const started = performance.now();
    const seed = process.env.FC_SEED === undefined ? undefined : Number(process.env.FC_SEED);
    const path = process.env.FC_PATH;
    const { details, fastAnswers } = await differential(pairs, parts, { numRuns: RUNS, seed, path, endOnFailure: path !== undefined });
    if (details.failed) assert.fail(await report(details));
    t.diagnostic(`seed ${details.seed}: ${details.numRuns} cases in ${((performance.now() - started) / 1000).toFixed(1)} s, ${fastAnswers} answered by the fast path`);
    assert.ok(fastAnswers >= FAST_SHARE * details.numRuns, `the fast path answered ${fastAnswers} of ${details.numRuns} cases, under ${FAST_SHARE * 100} %`);
  });

  it('fails, naming the seed and the command that replays the case, when a step declares for the fast path what Express does not do (a control)', async () => {
    const { details } = await differential({ open: lying, public: lying }, parts, { numRuns: 200 });
    assert.equal(details.failed, true, 'a lying step is caught');
    const [asked] = details.counterexample!;
    assert.deepEqual([asked.method, parts.pages.includes(asked.target)], ['GET', true], 'the case shrinks to a GET of a page');
    const message = await report(details);
    assert.match(message, new RegExp(`seed: ${details.seed}, path: "${details.counterexamplePath}"`));
    assert.match(message, new RegExp(`Replay this case: FC_SEED=${details.seed} FC_PATH=${details.counterexamplePath} node `));
    assert.match(message, /'x-proef',\s+\+\s+'beside'\s+-\s+'express'/);
  });
});
