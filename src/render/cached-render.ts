/**
 * The render cache around the page renderer (docs/streaming.md §6), as a cache middleware wraps a
 * handler: a page whose props are all settled is rendered once with placeholders for the
 * request's values, kept as a template, and each later request of the same version gets it with
 * its own values filled in. Decides hit, miss or bypass, counts it, and runs the verify guard.
 */
import type { Request, Response } from 'express';
import type { AssetsSource } from '../assets/source.js';
import type { Metrics } from '../metrics/index.js';
import { renderKey, type RenderCache, type RenderCacheResult, type RenderKey } from './cache.js';
import { fillTemplate, PLACEHOLDERS, toTemplate, type HoleValues, type Template } from './holes.js';
import { propsKey } from './props-key.js';
import type { Mode, PageRenderer, Render, RenderRequest, RequestValues } from './types.js';
import { modeOf } from './whole-document.js';

/** Options of {@link withRenderCache}. */
interface CachedRenderOptions {
  /** Where settled renders are kept. */
  cache: RenderCache;
  /** Counts each page's cache result, and reports the cache's size. */
  metrics: Metrics;
  /** The current client build: its id is part of every key. */
  assets: AssetsSource;
}

/**
 * Wraps the page renderer in the render cache.
 * @param pages the page renderer
 * @returns the `Render` the routes call; `caching` says whether loaders get placeholders
 */
export function withRenderCache(pages: PageRenderer, { cache, metrics, assets }: CachedRenderOptions): Render {
  metrics.watchRenderCache(() => cache.size());

  const counted = (locals: { render?: RenderCacheResult }, result: RenderCacheResult) => {
    locals.render = result;
    metrics.renderCache.inc({ result });
  };

  /** Sends a hit; with the verify guard, a fresh render of the same page is compared and sent instead. */
  function serveHit(req: Request, res: Response, page: RenderRequest, mode: Mode, filled: string, values: RequestValues): void {
    if (!cache.verify) return pages.send(res, page, mode, filled);
    const fresh = page.cacheable!.fresh();
    pages.render(req, res, fresh, mode, values, (text) => {
      if (text !== filled) {
        let offset = 0;
        while (offset < text.length && text[offset] === filled[offset]) offset++;
        req.log.error({ event: 'render_cache_mismatch', route: res.locals.route, offset, cached: filled.slice(offset, offset + 80), fresh: text.slice(offset, offset + 80) }, 'render_cache_mismatch');
      }
      pages.send(res, fresh, mode, text);
    });
  }

  /**
   * A page's key, from its route pattern, canonical path, way of sending and version; undefined
   * with the cache off, or for props with a pending promise or a value JSON cannot stand for.
   */
  const keyOf = (route: string, path: string, mode: Mode, page: RenderRequest): RenderKey | undefined => {
    const props = cache.enabled ? propsKey(page.props) : undefined;
    return props === undefined ? undefined : renderKey({ route, path, buildId: assets.current().buildId, mode, status: page.status, title: page.title, props });
  };

  const render = function render(req, res, page) {
    const mode = modeOf(req, res);
    const values: RequestValues = { nonce: res.locals.nonce, requestId: req.id };
    if (page.meta.noindex) res.setHeader('X-Robots-Tag', 'noindex');
    const key = page.cacheable ? keyOf(res.locals.route ?? '', req.path, mode, page) : undefined;
    if (key === undefined) {
      counted(res.locals, 'bypass');
      // Rendered as it comes, with this response's values where the loader gave placeholders.
      return pages.render(req, res, page.cacheable ? page.cacheable.fresh() : page, mode, values);
    }
    const holes: HoleValues = { ...res.locals.holes, ...values };
    const hit = cache.get(key);
    if (hit) {
      counted(res.locals, 'hit');
      return serveHit(req, res, page, mode, fillTemplate(hit, holes), values);
    }
    counted(res.locals, 'miss');
    pages.render(req, res, page, mode, { nonce: PLACEHOLDERS.nonce, requestId: PLACEHOLDERS.requestId }, (text, htmlRange, complete) => {
      const template = toTemplate(text, htmlRange);
      if (complete) cache.set(key, template);
      pages.send(res, page, mode, fillTemplate(template, holes));
    });
  } as Render;
  /** The fast path's lookup: a hit counted (and recorded in `locals` for the log line) as the router's is. */
  function hit(locals: { render?: RenderCacheResult }, route: string, path: string, mode: Mode, page: RenderRequest): Template | undefined {
    const key = keyOf(route, path, mode, page);
    const template = key && cache.get(key);
    if (template) counted(locals, 'hit');
    return template;
  }
  Object.defineProperties(render, { caching: { value: cache.enabled }, hit: { value: hit } });
  return render;
}
