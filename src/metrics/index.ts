/**
 * Metrics for operators (docs/operations.md §7): counters and histograms of one app in a registry
 * of its own, read as Prometheus text by the metrics listener (`listener.ts`). Every label has a
 * bounded set of values: route patterns, never paths; status classes, never statuses.
 */
import { Counter, Gauge, Histogram, Registry } from 'prom-client';

/** What a render ended in: how it was sent, or why it was not sent whole. */
export type RenderOutcome = 'shell' | 'whole' | 'data' | 'failed' | 'timeout' | 'client_gone';

/** What an image request ended in. */
export type ImageOutcome = 'hit' | 'miss' | 'not_modified' | 'shed' | 'refused' | 'unreadable';

/**
 * What a form post ended in: stored (303 to the result), honeypot (303 to the neutral thank-you,
 * nothing stored), erased (a registration erased by its person), asked (the erasure's question
 * asked once more: nothing changed), invalid (422), forbidden (403), rate_limited (429), rejected
 * (another 4xx: shape, size, encoding; a registration already erased), error (5xx).
 */
export type FormOutcome = 'stored' | 'honeypot' | 'erased' | 'asked' | 'invalid' | 'forbidden' | 'rate_limited' | 'rejected' | 'error';

/** The instruments of one app. */
export interface Metrics {
  registry: Registry;
  /** `http_request_duration_seconds{route,method,status_class}`. */
  requestDuration: Histogram<'route' | 'method' | 'status_class'>;
  /** `eiland_renders_total{route,outcome}`. */
  renders: Counter<'route' | 'outcome'>;
  /** `eiland_render_cache_total{result}`: pages served from the render cache, rendered into it, or past it. */
  renderCache: Counter<'result'>;
  /** `eiland_image_requests_total{outcome}`. */
  images: Counter<'outcome'>;
  /** `eiland_storage_errors_total{operation}`. */
  storageErrors: Counter<'operation'>;
  /** `eiland_form_posts_total{form,outcome}`. */
  formPosts: Counter<'form' | 'outcome'>;
  /** `eiland_retention_deleted_total{kind}`: rows and `.eml` files the retention job deleted (docs/operations.md §11). */
  retentionDeleted: Counter<'kind'>;
  /** `eiland_mail_total{outcome}`: the outbox's messages by outcome, `sent`, `retried`, `set_aside` or `suppressed` (docs/operations.md §12). */
  mail: Counter<'outcome'>;
  /** `eiland_logins_total{outcome}`: beheer's logins, `succeeded` or why one was refused: `unknown`, `disabled`, `locked`, `password` (docs/beheer.md §2). */
  logins: Counter<'outcome'>;
  /**
   * Reports the image job queue's state in `eiland_image_jobs{state="running"|"queued"}`, read
   * at each scrape.
   */
  watchImageJobs(state: () => { running: number; queued: number }): void;
  /**
   * Reports the render cache's size in `eiland_render_cache_bytes` and
   * `eiland_render_cache_entries`, read at each scrape.
   */
  watchRenderCache(size: () => { entries: number; bytes: number }): void;
}

/** Latency buckets in seconds: a page answers in milliseconds, a render may run for 10 s. */
const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/**
 * Creates the instruments of one app, in a registry of their own (so that two apps in one
 * process, as in the tests, never share a counter).
 */
export function createMetrics(): Metrics {
  const registry = new Registry();
  const registers = [registry];
  let jobs: (() => { running: number; queued: number }) | undefined;
  let renderCache: (() => { entries: number; bytes: number }) | undefined;
  for (const [measure, help] of [
    ['bytes', 'What the render cache holds, in bytes as its bound (RENDER_CACHE_MAX_BYTES) counts them.'],
    ['entries', 'Pages the render cache holds (one version of each page and way of sending it).'],
  ] as const) {
    new Gauge({
      name: `eiland_render_cache_${measure}`,
      help,
      registers,
      collect() {
        this.set(renderCache?.()[measure] ?? 0);
      },
    });
  }
  new Gauge({
    name: 'eiland_image_jobs',
    help: 'Image jobs (sharp) running and waiting for a slot.',
    labelNames: ['state'],
    registers,
    collect() {
      const state = jobs?.();
      this.set({ state: 'running' }, state?.running ?? 0);
      this.set({ state: 'queued' }, state?.queued ?? 0);
    },
  });
  return {
    registry,
    requestDuration: new Histogram({
      name: 'http_request_duration_seconds',
      help: 'Time from a request to the end of its response, by route pattern, method and status class.',
      labelNames: ['route', 'method', 'status_class'],
      buckets: DURATION_BUCKETS,
      registers,
    }),
    renders: new Counter({
      name: 'eiland_renders_total',
      help: 'Page renders by route and outcome: shell (streamed), whole (bots, text browsers), data (page data), failed (the shell), timeout or client_gone (aborted).',
      labelNames: ['route', 'outcome'],
      registers,
    }),
    renderCache: new Counter({
      name: 'eiland_render_cache_total',
      help: 'Pages by render cache result: hit (sent from the cache, not rendered), miss (rendered and kept), bypass (not cacheable: pending data, a form post, a route that opts out, or the cache off).',
      labelNames: ['result'],
      registers,
    }),
    images: new Counter({
      name: 'eiland_image_requests_total',
      help: 'Image requests by outcome: hit, miss (made by sharp), not_modified, shed (503, queue full), refused (4xx), unreadable (a source sharp cannot read).',
      labelNames: ['outcome'],
      registers,
    }),
    storageErrors: new Counter({
      name: 'eiland_storage_errors_total',
      help: 'Database operations that failed (answered 503 where a request needed them), by operation.',
      labelNames: ['operation'],
      registers,
    }),
    formPosts: new Counter({
      name: 'eiland_form_posts_total',
      help: 'Form posts by form (its path) and outcome: stored, honeypot, erased, asked (the erasure asked again), invalid (422), forbidden (403), rate_limited (429), rejected (other 4xx), error (5xx).',
      labelNames: ['form', 'outcome'],
      registers,
    }),
    retentionDeleted: new Counter({
      name: 'eiland_retention_deleted_total',
      help: 'What the retention job deleted: registrations and contact_messages past RETENTION_DAYS, mail (the outbox\'s messages sent over a day ago), mail_files (this instance\'s .eml copies past RETENTION_DAYS).',
      labelNames: ['kind'],
      registers,
    }),
    mail: new Counter({
      name: 'eiland_mail_total',
      help: 'Sends of the outbox\'s e-mails by outcome: sent, retried (refused for now or unreachable; tried again later), set_aside (a 5xx answer or MAIL_MAX_ATTEMPTS tries; waits for an operator), suppressed (never sent: its address had 3 e-mails in 24 hours).',
      labelNames: ['outcome'],
      registers,
    }),
    logins: new Counter({
      name: 'eiland_logins_total',
      help: "Beheer's logins by outcome: succeeded, or refused as unknown (no such account), disabled, locked (10 failures) or password (a wrong one).",
      labelNames: ['outcome'],
      registers,
    }),
    watchImageJobs(state) {
      jobs = state;
    },
    watchRenderCache(size) {
      renderCache = size;
    },
  };
}
