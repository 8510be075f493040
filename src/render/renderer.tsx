/**
 * The page renderer (docs/streaming.md, docs/navigation.md §1): a route's view inside the
 * document and its contexts, streamed as HTML, or its `<main>` alone as page data when the
 * request carries the marker; a page whose props are all settled is served from the render cache
 * with its holes filled (docs/streaming.md §6). Composition only: the asset plan, the page-data
 * answer, the stream, the holes and the cache each live in their own module.
 */
import type { Request, Response } from 'express';
import type { ReactNode } from 'react';
import type { BuildManifest } from '../../protocol/manifest.js';
import type { RouteKind } from '../../protocol/routes.js';
import { Document } from '../../views/Document.js';
import { BuildImagesContext } from '../../views/Image.js';
import { IslandContext, type IslandRenderContext } from '../../views/Island.js';
import type { AssetsSource } from '../assets/source.js';
import type { Metrics } from '../metrics/index.js';
import { assetPlan, type AssetPlan } from './asset-plan.js';
import { documentMeta, type PageMeta } from './page-meta.js';
import { renderKey, type RenderCache } from './cache.js';
import { fillTemplate, PLACEHOLDERS, toTemplate, type HoleValues } from './holes.js';
import { pageDataBody, sendPageData } from './page-data.js';
import { propsKey } from './props-key.js';
import { streamRender, type Delivery } from './stream.js';
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
  /** Description, robots and share image (docs/pages.md §8–§9). */
  meta: PageMeta;
  /** Islands the page may render (its route's declaration); their scripts are loaded. */
  islands: readonly string[];
  /** The view's props, sent in page data (promises are awaited first). */
  props: object;
  /** The route's kind, for page data; from the manifest when absent. */
  kind?: RouteKind;
  /**
   * Given when the render may be served from the render cache: its props are all settled and
   * hold placeholders where they took values from the request. `fresh()` gives the same page
   * with this response's own values, which the verify guard renders to compare.
   */
  cacheable?: { fresh(): RenderRequest };
  /** Called instead of sending when the shell itself fails. */
  onShellError(error: unknown): void;
}

/** Renders one page into a response; see {@link createRenderer}. */
export type Render = ((req: Request, res: Response, page: RenderRequest) => void) & {
  /** Whether renders are cached: a loader then gives placeholders for the request's values. */
  readonly caching: boolean;
};

/** Options of {@link createRenderer}. */
export interface RendererOptions {
  /** The current client build, asked for on every render. */
  assets: AssetsSource;
  /** A render not finished after this many ms is aborted (docs/streaming.md §4: 10 s). */
  timeoutMs: number;
  /** Counts each render's outcome and each page's cache result. */
  metrics: Metrics;
  /** Where settled renders are kept (docs/streaming.md §6). */
  cache: RenderCache;
  /** The canonical public origin (the first of `PUBLIC_ORIGIN`): absolute URLs are built on it alone. */
  publicOrigin?: string;
}

/** How a page is sent: streamed HTML, the whole document at once (bots, text browsers), or page data. */
type Mode = 'stream' | 'whole' | 'data';

/** The per-request values a render carries besides its props. */
interface RequestValues {
  nonce: string;
  requestId: string;
}

/**
 * Creates the renderer.
 * @example const render = createRenderer({ assets: productionAssets('dist'), timeoutMs: 10_000, metrics, cache })
 */
export function createRenderer({ assets, timeoutMs, metrics, cache, publicOrigin }: RendererOptions): Render {
  /** The element to render: the document around the content, or the content alone for page data. */
  function element(req: Request, res: Response, page: RenderRequest, manifest: BuildManifest, plan: AssetPlan, mode: Mode, values: RequestValues): ReactNode {
    let ids = 0;
    const islands: IslandRenderContext = { nextId: () => `i${++ids}`, fileOf: plan.fileOf, declared: page.islands };
    const content = (
      <BuildImagesContext value={manifest.images}>
        <IslandContext value={islands}>{page.content}</IslandContext>
      </BuildImagesContext>
    );
    if (mode === 'data') return content;
    return (
      <Document
        title={page.title}
        meta={documentMeta(page.meta, publicOrigin, req.path, manifest.images)}
        requestId={values.requestId}
        stylesheet={manifest.styles}
        currentPath={req.path}
        head={res.locals.pageHead?.(values.nonce)}
        manifestUrl={manifest.url}
        scripts={plan.scripts}
        afterPaint={plan.afterPaint}
        nonce={values.nonce}
        bot={mode === 'whole'}
      >
        {content}
      </Document>
    );
  }

  /**
   * Renders a page into a string: the HTML, or the page-data JSON with the range its HTML takes.
   * `done` gets `complete: false` for a render that was aborted or partly failed.
   */
  function renderToText(req: Request, res: Response, page: RenderRequest, mode: Mode, values: RequestValues, done: (text: string, htmlRange: [number, number] | undefined, complete: boolean) => void): void {
    const manifest = assets.current();
    const plan = assetPlan(manifest, page.islands, res.locals.route);
    const delivery: Delivery = {
      to: 'string',
      outcome: mode === 'data' ? 'data' : mode === 'whole' ? 'whole' : 'shell',
      async send(html, complete) {
        if (mode !== 'data') return done(html, undefined, complete);
        const body = await pageDataBody(html, { manifest, route: res.locals.route, kind: page.kind, status: page.status, title: page.title, description: page.meta.description ?? null, props: page.props, cacheControl: page.cacheControl, plan });
        done(body.json, body.htmlRange, complete);
      },
    };
    streamRender(req, res, element(req, res, page, manifest, plan, mode, values), { whole: mode !== 'stream', delivery, nonce: values.nonce, timeoutMs, metrics, onShellError: page.onShellError });
  }

  /** Sends a page rendered into a string, with the headers a streamed render sets. */
  function send(res: Response, page: RenderRequest, mode: Mode, text: string): void {
    if (mode === 'data') {
      sendPageData(res, text, page);
      return;
    }
    if (res.headersSent || res.destroyed) return;
    res.status(page.status);
    res.setHeader('Content-Type', 'text/html; charset=utf-8');
    res.setHeader('Cache-Control', page.cacheControl);
    if (mode === 'stream') res.setHeader('X-Accel-Buffering', 'no');
    res.end(text);
  }

  /** Serves a hit; with the verify guard, compared with a fresh render of the same page first. */
  function serveHit(req: Request, res: Response, page: RenderRequest, fresh: () => RenderRequest, mode: Mode, filled: string, values: RequestValues): void {
    if (!cache.verify) return send(res, page, mode, filled);
    const again = fresh();
    renderToText(req, res, again, mode, values, (text) => {
      if (text !== filled) {
        let offset = 0;
        while (offset < text.length && text[offset] === filled[offset]) offset++;
        req.log.error({ event: 'render_cache_mismatch', route: res.locals.route, offset, cached: filled.slice(offset, offset + 80), fresh: text.slice(offset, offset + 80) }, 'render_cache_mismatch');
      }
      send(res, again, mode, text);
    });
  }

  const render = function render(req, res, given) {
    const mode: Mode = res.locals.pageData ? 'data' : wantsWholeDocument(req.get('user-agent') ?? '') ? 'whole' : 'stream';
    const values: RequestValues = { nonce: res.locals.nonce, requestId: req.id };
    if (given.meta.noindex) res.setHeader('X-Robots-Tag', 'noindex');
    // Props with a pending promise, or with a value JSON cannot stand for, have no key.
    const props = cache.enabled && given.cacheable ? propsKey(given.props) : undefined;
    if (props === undefined) {
      // Rendered as it comes, with this response's values where the loader gave placeholders.
      const page = given.cacheable ? given.cacheable.fresh() : given;
      res.locals.render = 'bypass';
      metrics.renderCache.inc({ result: 'bypass' });
      if (mode === 'data') return renderToText(req, res, page, mode, values, (text) => send(res, page, mode, text));
      const manifest = assets.current();
      const plan = assetPlan(manifest, page.islands, res.locals.route);
      const delivery: Delivery = { to: 'html', status: page.status, cacheControl: page.cacheControl };
      streamRender(req, res, element(req, res, page, manifest, plan, mode, values), { whole: mode === 'whole', delivery, nonce: values.nonce, timeoutMs, metrics, onShellError: page.onShellError });
      return;
    }
    const page = given;
    const holes: HoleValues = { ...res.locals.holes, ...values };
    const key = renderKey({ route: res.locals.route ?? '', path: req.path, buildId: assets.current().buildId, mode, status: page.status, title: page.title, props });
    const hit = cache.get(key);
    if (hit) {
      res.locals.render = 'hit';
      metrics.renderCache.inc({ result: 'hit' });
      return serveHit(req, res, page, () => given.cacheable!.fresh(), mode, fillTemplate(hit, holes), values);
    }
    res.locals.render = 'miss';
    metrics.renderCache.inc({ result: 'miss' });
    renderToText(req, res, page, mode, { nonce: PLACEHOLDERS.nonce, requestId: PLACEHOLDERS.requestId }, (text, htmlRange, complete) => {
      const template = toTemplate(text, htmlRange);
      if (complete) cache.set(key, template);
      send(res, page, mode, fillTemplate(template, holes));
    });
  } as Render;
  Object.defineProperty(render, 'caching', { value: cache.enabled });
  return render;
}
