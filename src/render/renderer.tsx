/**
 * The page renderer (docs/streaming.md, docs/navigation.md §1): a route's view inside the
 * document and its contexts, streamed as HTML, or its `<main>` alone as page data when the
 * request carries the marker. Composition only: the asset plan, the page-data answer and the
 * stream each live in their own module.
 */
import type { Request, Response } from 'express';
import type { ReactNode } from 'react';
import type { RouteKind } from '../../protocol/routes.js';
import { Document } from '../../views/Document.js';
import { BuildImagesContext } from '../../views/Image.js';
import { IslandContext, type IslandRenderContext } from '../../views/Island.js';
import type { AssetsSource } from '../assets/source.js';
import type { Metrics } from '../metrics/index.js';
import { assetPlan } from './asset-plan.js';
import { sendPageData } from './page-data.js';
import { streamRender } from './stream.js';
import { wantsWholeDocument } from './whole-document.js';

/** What one page render needs. */
export interface RenderRequest {
  /** HTTP status, decided before rendering. */
  status: number;
  /** Full `<title>`. */
  title: string;
  /** Content of `<main>`. */
  content: ReactNode;
  /** `Cache-Control` of the response (docs/pages.md §2). */
  cacheControl: string;
  /** Extra `<head>` elements. */
  head?: ReactNode;
  /** Islands the page may render (its route's declaration); their scripts are loaded. */
  islands: readonly string[];
  /** The view's props, sent in page data (promises are awaited first). */
  props: object;
  /** The route's kind, for page data; from the manifest when absent. */
  kind?: RouteKind;
  /** Called instead of sending when the shell itself fails. */
  onShellError(error: unknown): void;
}

/** Renders one page into a response; see {@link createRenderer}. */
export type Render = (req: Request, res: Response, page: RenderRequest) => void;

/** Options of {@link createRenderer}. */
export interface RendererOptions {
  /** The current client build, asked for on every render. */
  assets: AssetsSource;
  /** A render not finished after this many ms is aborted (docs/streaming.md §4: 10 s). */
  timeoutMs: number;
  /** Counts each render's outcome. */
  metrics: Metrics;
}

/**
 * Creates the renderer.
 * @example const render = createRenderer({ assets: productionAssets('dist'), timeoutMs: 10_000, metrics })
 */
export function createRenderer({ assets, timeoutMs, metrics }: RendererOptions): Render {
  return function render(req, res, page) {
    const { route, nonce, pageData } = res.locals;
    const manifest = assets.current();
    // Bots, text browsers and page data get everything at once, with no pending boundary.
    const whole = pageData || wantsWholeDocument(req.get('user-agent') ?? '');
    const plan = assetPlan(manifest, page.islands, route);
    let ids = 0;
    const islands: IslandRenderContext = { nextId: () => `i${++ids}`, fileOf: plan.fileOf, declared: page.islands };
    const content = (
      <BuildImagesContext value={manifest.images}>
        <IslandContext value={islands}>{page.content}</IslandContext>
      </BuildImagesContext>
    );
    const element = pageData ? (
      content
    ) : (
      <Document
        title={page.title}
        requestId={req.id}
        stylesheet={manifest.styles}
        currentPath={req.path}
        head={
          <>
            {res.locals.pageHead?.(nonce)}
            {page.head}
          </>
        }
        manifestUrl={manifest.url}
        scripts={plan.scripts}
        preloads={plan.preloads}
        nonce={nonce}
        bot={whole}
      >
        {content}
      </Document>
    );
    streamRender(req, res, element, {
      whole,
      delivery: pageData
        ? { to: 'data', send: (html) => sendPageData(res, html, { manifest, route, kind: page.kind, status: page.status, title: page.title, props: page.props, cacheControl: page.cacheControl, plan }) }
        : { to: 'html', status: page.status, cacheControl: page.cacheControl },
      nonce,
      timeoutMs,
      metrics,
      onShellError: page.onShellError,
    });
  };
}
