/**
 * The streaming renderer (product.md §6): React 19 `renderToPipeableStream`.
 * Browsers get the shell as soon as it is ready; bots get the whole document
 * at once. Status and headers are set at the last moment before the first byte.
 */
import type { Request, Response } from 'express';
import type { ReactNode } from 'react';
import { renderToPipeableStream } from 'react-dom/server';
import { isbot } from 'isbot';
import { Document } from '../../views/Document.js';
import { IslandContext, type IslandRenderContext } from '../../views/Island.js';
import type { BuildManifest, ScriptAsset } from '../manifest.js';

function islandScript(manifest: BuildManifest, name: string): ScriptAsset {
  const script = manifest.islands[name];
  if (!script) throw new Error(`Island "${name}" is not in build ${manifest.buildId}: run "node build.mjs"`);
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
  /** Called instead of streaming when the shell itself fails. */
  onShellError(error: unknown): void;
}

/** Renders one document into a response; see {@link createRenderer}. */
export type Render = (req: Request, res: Response, page: RenderRequest) => void;

/** Options of {@link createRenderer}. */
export interface RendererOptions {
  manifest: BuildManifest;
  /** A render not finished after this many ms is aborted (product.md §6: 10 s). */
  timeoutMs: number;
}

/** The reason given to React when Eiland aborts a render; not an error to log twice. */
class RenderAborted extends Error {
  constructor(readonly reason: 'timeout' | 'client_disconnected') {
    super(`Render aborted: ${reason}`);
    this.name = 'RenderAborted';
  }
}

/**
 * Creates the renderer.
 * @example const render = createRenderer({ manifest, timeoutMs: 10_000 })
 */
export function createRenderer({ manifest, timeoutMs }: RendererOptions): Render {
  return function render(req, res, page) {
    const bot = isbot(req.get('user-agent') ?? '');
    const log = req.log;
    const nonce = res.locals.nonce as string | undefined;
    const scripts = page.islands.length === 0 ? [] : [manifest.runtime, ...page.islands.map((name) => islandScript(manifest, name))];
    let ids = 0;
    const islands: IslandRenderContext = {
      nextId: () => `i${++ids}`,
      fileOf: (name) => islandScript(manifest, name).file,
      declared: page.islands,
    };
    const document = (
      <Document
        title={page.title}
        requestId={String(req.id)}
        stylesheet={manifest.styles}
        currentPath={req.path}
        head={page.head}
        manifestUrl={manifest.url}
        scripts={scripts.slice(0, 1).map((s) => s.file)}
        preloads={[...new Set(scripts.flatMap((s, i) => (i === 0 ? s.imports : [s.file, ...s.imports])))]}
        nonce={nonce}
      >
        <IslandContext value={islands}>{page.content}</IslandContext>
      </Document>
    );

    const start = () => {
      res.status(page.status);
      res.setHeader('Content-Type', 'text/html; charset=utf-8');
      res.setHeader('Cache-Control', page.cacheControl);
      stream.pipe(res);
    };

    const stream = renderToPipeableStream(document, {
      nonce,
      // Bots get no outlined chunks and no reveal scripts (react#34966, toolchain.md).
      progressiveChunkSize: bot ? Number.POSITIVE_INFINITY : undefined,
      onShellReady() {
        if (!bot) start();
      },
      onAllReady() {
        if (bot) start();
      },
      onShellError(error) {
        clearTimeout(timer);
        page.onShellError(error);
      },
      onError(error) {
        if (!(error instanceof RenderAborted)) log.error({ err: error }, 'render error');
      },
    });

    const abort = (reason: RenderAborted['reason']) => {
      log.warn({ event: 'render_aborted', reason, route: res.locals.route }, 'render_aborted');
      stream.abort(new RenderAborted(reason));
    };
    const timer = setTimeout(() => abort('timeout'), timeoutMs);
    res.on('close', () => {
      clearTimeout(timer);
      // 'close' also follows a normal finish: only an unfinished response is a disconnect.
      if (!res.writableFinished) abort('client_disconnected');
    });
  };
}
