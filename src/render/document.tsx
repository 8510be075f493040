/**
 * The streaming renderer (product.md §6): React 19 `renderToPipeableStream`.
 * Browsers get the shell as soon as it is ready; bots and text browsers get
 * the whole document at once. Status and headers are set at the last moment before the first byte.
 */
import type { Request, Response } from 'express';
import type { ReactNode } from 'react';
import { Writable } from 'node:stream';
import { renderToPipeableStream, type PipeableStream } from 'react-dom/server';
import { Document } from '../../views/Document.js';
import { BuildImagesContext } from '../../views/Image.js';
import { IslandContext, type IslandRenderContext } from '../../views/Island.js';
import { coalescing } from './coalescing.js';
import { wantsWholeDocument } from './whole-document.js';
import type { AssetsSource } from '../build/assets-source.js';
import type { BuildManifest, ScriptAsset } from '../build/manifest.js';
import { DATA_HEADER } from '../shared/page-data.js';
import type { Metrics, RenderOutcome } from '../metrics/index.js';
import type { RouteKind } from '../shared/route-table.js';

function islandScript(manifest: BuildManifest, name: string): ScriptAsset {
  const script = manifest.islands[name];
  if (!script) throw new Error(`Island "${name}" is not in build ${manifest.buildId}: run "npm run build"`);
  return script;
}

/** What one page render needs. */
export interface RenderRequest {
  /** HTTP status, decided before rendering. */
  status: number;
  /** Full `<title>`. */
  title: string;
  /** Content of `<main>`. */
  content: ReactNode;
  /** `Cache-Control` of the response (product.md §1). */
  cacheControl: string;
  /** Extra `<head>` elements. */
  head?: ReactNode;
  /** Islands the page may render (its route's declaration); their scripts are loaded. */
  islands: readonly string[];
  /** The view's props, sent in page data (promises are awaited first). */
  props: object;
  /** The route's kind, for page data; from the manifest when absent. */
  kind?: RouteKind;
  /** Called instead of streaming when the shell itself fails. */
  onShellError(error: unknown): void;
}

/** Renders one document into a response; see {@link createRenderer}. */
export type Render = (req: Request, res: Response, page: RenderRequest) => void;

/** Options of {@link createRenderer}. */
export interface RendererOptions {
  /** The current client build, asked for on every render. */
  assets: AssetsSource;
  /** A render not finished after this many ms is aborted (product.md §6: 10 s). */
  timeoutMs: number;
  /** Counts each render's outcome. */
  metrics: Metrics;
}

/** The reason given to React when Eiland aborts a render; not an error to log twice. */
class RenderAborted extends Error {
  constructor(readonly reason: 'timeout' | 'client_disconnected') {
    super(`Render aborted: ${reason}`);
    this.name = 'RenderAborted';
  }
}

/** Awaits promise-valued props (deferred loader data), for page-data JSON. */
async function settledProps(props: object): Promise<Record<string, unknown>> {
  const entries = await Promise.all(Object.entries(props).map(async ([k, v]) => [k, v instanceof Promise ? await v : v] as const));
  return Object.fromEntries(entries);
}

/** Collects a render's HTML into a string. */
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
 * Creates the renderer. A request with `X-Eiland-Data: 1` gets the page data
 * of product.md §7 — the complete `<main>` content as JSON, same status —
 * instead of the streamed document.
 * @example const render = createRenderer({ assets: productionAssets('dist'), timeoutMs: 10_000 })
 */
export function createRenderer({ assets, timeoutMs, metrics }: RendererOptions): Render {
  return function render(req, res, page) {
    const route = (res.locals.route as string | undefined) ?? null;
    const logAborted = (reason: RenderAborted['reason']) => req.log.warn({ event: 'render_aborted', reason, route }, 'render_aborted');
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
    const manifest = assets.current();
    const data = req.get(DATA_HEADER) === '1';
    // Bots, text browsers and page data get everything at once, with no pending boundary.
    const whole = data || wantsWholeDocument(req.get('user-agent') ?? '');
    const nonce = res.locals.nonce as string | undefined;
    // The router on every page; the island runtime and chunks only where islands are.
    const islandScripts = page.islands.map((name) => islandScript(manifest, name));
    const runtime = islandScripts.length > 0 ? [manifest.runtime] : [];
    const preloads = [...new Set([manifest.router, ...runtime].flatMap((s) => s.imports).concat(islandScripts.flatMap((s) => [s.file, ...s.imports])))];
    let ids = 0;
    const islands: IslandRenderContext = {
      nextId: () => `i${++ids}`,
      fileOf: (name) => islandScript(manifest, name).file,
      declared: page.islands,
    };
    const content = (
      <BuildImagesContext value={manifest.images}>
        <IslandContext value={islands}>{page.content}</IslandContext>
      </BuildImagesContext>
    );
    const element = data ? (
      content
    ) : (
      <Document
        title={page.title}
        requestId={String(req.id)}
        stylesheet={manifest.styles}
        currentPath={req.path}
        head={page.head}
        manifestUrl={manifest.url}
        scripts={[manifest.router, ...runtime].map((s) => s.file)}
        preloads={preloads}
        nonce={nonce}
        reload={assets.feed && manifest.reload ? { src: manifest.reload.file, id: assets.feed.id } : undefined}
      >
        {content}
      </Document>
    );

    const sendData = (html: string) => {
      void settledProps(page.props).then((props) => {
        if (res.headersSent || res.destroyed) return;
        res.status(page.status).set(DATA_HEADER, '1').set('Cache-Control', page.cacheControl);
        res.json({
          buildId: manifest.buildId,
          route,
          kind: page.kind ?? (route ? manifest.routes[route]?.kind : undefined) ?? 'static',
          status: page.status,
          title: page.title,
          props,
          html,
          islands: page.islands.map((name, i) => ({ name, ...islandScripts[i]! })),
          // A route outside the build (a test page) lists what this render loads.
          assets: (route ? manifest.routes[route]?.assets : undefined) ?? [manifest.styles, ...runtime.map((s) => s.file), ...preloads],
        });
      });
    };

    const start = () => {
      outcome = data ? 'data' : whole ? 'whole' : 'shell';
      if (data) {
        collect(stream, sendData);
        return;
      }
      res.status(page.status);
      res.setHeader('Content-Type', 'text/html; charset=utf-8');
      res.setHeader('Cache-Control', page.cacheControl);
      // A reverse proxy passes a streamed page on as it comes, so the shell still arrives first
      // (nginx honours this even where proxy_buffering is on; issue 12).
      if (!whole) res.setHeader('X-Accel-Buffering', 'no');
      stream.pipe(coalescing(res));
    };

    const stream = renderToPipeableStream(element, {
      nonce,
      // No outlined chunks and no reveal scripts when all is sent at once (react#34966, toolchain.md).
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
        page.onShellError(error);
      },
      onError(error) {
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
  };
}
