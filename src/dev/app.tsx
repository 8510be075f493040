/**
 * Development wraps production (docs/development.md §1–§2): the reload channel, and the reload
 * client with the id of the build each page shows in its head, around the production app, which
 * knows nothing of them.
 */
import express, { Router, type Express } from 'express';
import { META } from '../../protocol/meta.js';
import type { Lifecycle } from '../lifecycle.js';
import type { BuildFeed } from './feed.js';
import { reloadChannel } from './reload-channel.js';

/** What the development app needs. */
export interface DevelopmentAppOptions {
  /** The runner's feed of builds. */
  feed: BuildFeed;
  /** Open event streams end when shutdown begins. */
  lifecycle: Lifecycle;
}

/**
 * The development app: `/_eiland/reload`, then the production app with the reload client in
 * every page it renders (page data carries none).
 * @param app the production app (`createApp`)
 * @example startServer(config, { assets, wrap: (app, { lifecycle }) => developmentApp(app, { feed: assets.feed, lifecycle }) })
 */
export function developmentApp(app: Express, { feed, lifecycle }: DevelopmentAppOptions): Express {
  const dev = express();
  dev.disable('x-powered-by');
  dev.use(reloadChannel({ feed, lifecycle }, Router({ caseSensitive: true, strict: true })));
  dev.use(function reloadClient(_req, res, next) {
    const client = feed.manifest.reload;
    if (client) {
      res.locals.pageHead = (nonce) => (
        <>
          <meta name={META.build} content={feed.id} />
          <script type="module" src={client.file} nonce={nonce} />
        </>
      );
    }
    next();
  });
  dev.use(app);
  return dev;
}
