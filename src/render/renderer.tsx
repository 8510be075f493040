/**
 * The page renderer (docs/streaming.md, docs/navigation.md §1): a route's view inside the
 * document and its contexts, streamed as HTML, or its `<main>` alone as page data when the
 * request carries the marker. Composition only, once: the asset plan, the element, the stream.
 * The render cache wraps it (`cached-render.ts`); the page-data answer, the stream and the HTML
 * head each live in their own module.
 */
import type { Request, Response } from 'express';
import type { ReactNode } from 'react';
import type { BuildManifest } from '../../protocol/manifest.js';
import { Document } from '../../views/Document.js';
import { BuildImagesContext } from '../../views/Image.js';
import { IslandContext, type IslandRenderContext } from '../../views/Island.js';
import type { AssetsSource } from '../assets/source.js';
import type { Metrics } from '../metrics/index.js';
import { assetPlan, type AssetPlan } from './asset-plan.js';
import { setHtmlHead } from './html-head.js';
import { documentMeta } from './page-meta.js';
import { pageDataBody, sendPageData } from './page-data.js';
import { streamRender, type Delivery } from './stream.js';
import type { Mode, PageRenderer, RenderRequest, RequestValues, TextSink } from './types.js';

/** Options of {@link createPageRenderer}. */
interface RendererOptions {
  /** The current client build, asked for on every render. */
  assets: AssetsSource;
  /** A render not finished after this many ms is aborted (docs/streaming.md §4: 10 s). */
  timeoutMs: number;
  /** Counts each render's outcome. */
  metrics: Metrics;
  /** The canonical public origin (the first of `PUBLIC_ORIGIN`): absolute URLs are built on it alone. */
  publicOrigin?: string;
}

/**
 * Creates the page renderer.
 * @example const pages = createPageRenderer({ assets: productionAssets('dist'), timeoutMs: 10_000, metrics })
 */
export function createPageRenderer({ assets, timeoutMs, metrics, publicOrigin }: RendererOptions): PageRenderer {
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
        head={res.locals.pageHead?.render(values.nonce)}
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

  function send(res: Response, page: RenderRequest, mode: Mode, body: string): void {
    if (mode === 'data') {
      sendPageData(res, body, page);
      return;
    }
    if (res.headersSent || res.destroyed) return;
    setHtmlHead(res, { status: page.status, cacheControl: page.cacheControl, streamed: mode === 'stream', length: Buffer.byteLength(body) });
    res.end(body);
  }

  function render(req: Request, res: Response, page: RenderRequest, mode: Mode, values: RequestValues, into?: TextSink): void {
    const manifest = assets.current();
    const plan = assetPlan(manifest, page.islands, res.locals.route);
    // HTML goes out as React writes it; page data, and whatever is rendered into a string, is collected first.
    const delivery: Delivery =
      into === undefined && mode !== 'data'
        ? { to: 'html', status: page.status, cacheControl: page.cacheControl }
        : {
            to: 'string',
            outcome: mode === 'data' ? 'data' : mode === 'whole' ? 'whole' : 'shell',
            async send(html, complete) {
              const deliver: TextSink = into ?? ((text) => send(res, page, mode, text));
              if (mode !== 'data') return deliver(html, undefined, complete);
              const body = await pageDataBody(html, { manifest, route: res.locals.route, kind: page.kind, status: page.status, title: page.title, description: page.meta.description ?? null, props: page.props, cacheControl: page.cacheControl, plan });
              deliver(body.json, body.htmlRange, complete);
            },
          };
    streamRender(req, res, element(req, res, page, manifest, plan, mode, values), { whole: mode !== 'stream', delivery, nonce: values.nonce, timeoutMs, metrics, onShellError: page.onShellError });
  }

  return { render, send };
}
