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
import { fillTemplate, PLACEHOLDERS, toTemplate, type HoleValues } from './holes.js';
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

  /**
   * Hands a hit's body to `send`: the template filled; with the verify guard, a fresh render of the
   * same page with this response's values, compared with it (a difference is logged), instead.
   * The same for the router and the fast path.
   */
  function verified(req: Request, res: Response, page: RenderRequest, mode: Mode, filled: string, values: RequestValues, send: (body: string, sent: RenderRequest) => void): void {
    if (!cache.verify) return send(filled, page);
    const fresh = page.cacheable?.fresh() ?? page;
    pages.render(req, res, fresh, mode, values, (text) => {
      if (text !== filled) {
        let offset = 0;
        while (offset < text.length && text[offset] === filled[offset]) offset++;
        req.log.error({ event: 'render_cache_mismatch', route: res.locals.route, offset, cached: filled.slice(offset, offset + 80), fresh: text.slice(offset, offset + 80) }, 'render_cache_mismatch');
      }
      send(text, fresh);
    });
  }

  /**
   * A page's key, from its route pattern, canonical path, way of sending and version; undefined
   * with the cache off, or for props with a pending promise or a value JSON cannot stand for.
   */
  const keyOf = (locals: Partial<Express.Locals>, route: string, path: string, mode: Mode, page: RenderRequest): RenderKey | undefined => {
    const props = cache.enabled ? propsKey(page.props) : undefined;
    return props === undefined ? undefined : renderKey({ route, path, buildId: assets.current().buildId, mode, status: page.status, title: page.title, head: locals.pageHead?.key, props });
  };

  const render = function render(req, res, page) {
    const mode = modeOf(req, res);
    const values: RequestValues = { nonce: res.locals.nonce, requestId: req.id };
    if (page.meta.noindex) res.setHeader('X-Robots-Tag', 'noindex');
    const key = page.cacheable ? keyOf(res.locals, res.locals.route ?? '', req.path, mode, page) : undefined;
    if (key === undefined) {
      counted(res.locals, 'bypass');
      // Rendered as it comes, with this response's values where the loader gave placeholders.
      return pages.render(req, res, page.cacheable ? page.cacheable.fresh() : page, mode, values);
    }
    const holes: HoleValues = { ...res.locals.holes, ...values };
    const hit = cache.get(key);
    if (hit) {
      counted(res.locals, 'hit');
      return verified(req, res, page, mode, fillTemplate(hit, holes), values, (body, sent) => pages.send(res, sent, mode, body));
    }
    counted(res.locals, 'miss');
    pages.render(req, res, page, mode, { nonce: PLACEHOLDERS.nonce, requestId: PLACEHOLDERS.requestId }, (text, htmlRange, complete) => {
      const template = toTemplate(text, htmlRange);
      if (complete) cache.set(key, template);
      pages.send(res, page, mode, fillTemplate(template, holes));
    });
  } as Render;
  const hit: Render['hit'] = function hit(req, res, page, { route, path, mode, values }, send) {
    const key = keyOf(res.locals, route, path, mode, page);
    const template = key && cache.get(key);
    if (!template) return false;
    counted(res.locals, 'hit');
    verified(req, res, page, mode, fillTemplate(template, values), values, (body) => send(body));
    return true;
  };
  Object.defineProperties(render, { caching: { value: cache.enabled }, hit: { value: hit } });
  return render;
}
