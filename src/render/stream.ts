/**
 * The render stream (docs/streaming.md): React's `renderToPipeableStream` into a response, with
 * status and headers set at the last moment before the first byte, a 10 s time-out, the client's
 * disconnect, the `render_aborted` log line and the render's outcome counted once.
 */
import { Writable } from 'node:stream';
import type { Request, Response } from 'express';
import type { ReactNode } from 'react';
import { renderToPipeableStream, type PipeableStream } from 'react-dom/server';
import type { Metrics, RenderOutcome } from '../metrics/index.js';
import { coalescing } from './coalescing.js';
import { setHtmlHead } from './html-head.js';
import { serverAnswer } from '../request-end.js';

/** Where a render's output goes once it may be sent. */
export type Delivery =
  /** Streamed HTML, with this status and `Cache-Control`. */
  | { to: 'html'; status: number; cacheControl: string }
  /**
   * Collected into a string: for the page-data answer (docs/navigation.md §1) and for the render
   * cache (docs/streaming.md §6). `complete` is false when the render was aborted or a part of it
   * failed: such output is sent, never cached.
   */
  | { to: 'string'; outcome: 'shell' | 'whole' | 'data'; send(html: string, complete: boolean): void | Promise<void> };

/** Options of {@link streamRender}. */
interface StreamOptions {
  delivery: Delivery;
  /** Everything at once (`onAllReady`): bots, text browsers and page data (docs/streaming.md §1). */
  whole: boolean;
  /** The CSP nonce React puts on every script it writes. */
  nonce: string;
  /** A render not finished after this many ms is aborted (docs/streaming.md §4: 10 s). */
  timeoutMs: number;
  metrics: Metrics;
  /** Called instead of sending when the shell itself fails (or page data cannot be made). */
  onShellError(error: unknown): void;
}

/** The reason given to React when Eiland aborts a render; not an error to log twice. */
class RenderAborted extends Error {
  constructor(readonly reason: 'timeout' | 'client_disconnected') {
    super(`Render aborted: ${reason}`);
    this.name = 'RenderAborted';
  }
}

/** Collects a render's output into a string. */
function collect(stream: PipeableStream, done: (html: string) => void): void {
  let html = '';
  const sink = new Writable({
    write(chunk: Buffer, _encoding, next) {
      html += chunk.toString('utf8');
      next();
    },
  });
  sink.on('finish', () => done(html));
  stream.pipe(sink);
}

/**
 * Renders an element into a response.
 * @param element the document, or the content of `<main>` for page data
 */
export function streamRender(req: Request, res: Response, element: ReactNode, { delivery, whole, nonce, timeoutMs, metrics, onShellError }: StreamOptions): void {
  const route = res.locals.route ?? null;
  // The server's own answer (its 400 to a body its parser refused, src/parser-errors.ts) is the
  // request's line; no client cut the render short.
  const logAborted = (reason: RenderAborted['reason']) => {
    if (serverAnswer(res) === undefined) req.log.warn({ event: 'render_aborted', reason, route }, 'render_aborted');
  };
  /** What this render ends in, counted once when the response closes. */
  let outcome: RenderOutcome = 'client_gone';
  const count = () => metrics.renders.inc({ route: route ?? 'unmatched', outcome });
  if (res.closed) {
    // The client left while the loader ran: nothing to render, and 'close' will not come again
    // (without this, the render's time-out would log it 10 s later as a timeout).
    logAborted('client_disconnected');
    count();
    return;
  }

  /** Whether a part of the render failed or it was aborted: its output is not the page's. */
  let broken = false;
  const start = () => {
    if (delivery.to === 'string') {
      outcome = delivery.outcome;
      collect(stream, (html) => void Promise.resolve(delivery.send(html, !broken)).catch(onShellError));
      return;
    }
    outcome = whole ? 'whole' : 'shell';
    setHtmlHead(res, { status: delivery.status, cacheControl: delivery.cacheControl, streamed: !whole });
    stream.pipe(coalescing(res));
  };

  const stream = renderToPipeableStream(element, {
    nonce,
    // No outlined chunks and no reveal scripts when all is sent at once (react#34966).
    progressiveChunkSize: whole ? Number.POSITIVE_INFINITY : undefined,
    onShellReady() {
      if (!whole) start();
    },
    onAllReady() {
      if (whole) start();
    },
    onShellError(error) {
      clearTimeout(timer);
      outcome = 'failed';
      onShellError(error);
    },
    onError(error) {
      broken = true;
      if (!(error instanceof RenderAborted)) req.log.error({ err: error }, 'render error');
    },
  });

  const abort = (reason: RenderAborted['reason']) => {
    // A render that timed out and then lost its client counts as timed out.
    if (outcome !== 'timeout') outcome = reason === 'timeout' ? 'timeout' : 'client_gone';
    logAborted(reason);
    stream.abort(new RenderAborted(reason));
  };
  const timer = setTimeout(() => abort('timeout'), timeoutMs);
  res.on('close', () => {
    clearTimeout(timer);
    // 'close' also follows a normal finish: only an unfinished response is a disconnect.
    if (!res.writableFinished) abort('client_disconnected');
    count();
  });
}
