/**
 * Development wraps production (docs/development.md §1–§2): the reload client, and the id of the
 * build each page shows, in the head of every page the production app renders; the production app
 * knows nothing of them. The reload channel itself is the runner's (src/dev/front.ts).
 */
import express, { type Express } from 'express';
import { META } from '../../protocol/meta.js';
import type { PageBuild } from './page-build.js';

/**
 * The development app: the production app with the reload client in every page it renders
 * (page data carries none).
 * @param app the production app (`createApp`)
 * @param build the build pages show
 * @example startServer(config, { assets, wrap: (app) => developmentApp(app, assets.build) })
 */
export function developmentApp(app: Express, build: PageBuild): Express {
  const dev = express();
  dev.disable('x-powered-by');
  dev.use(function reloadClient(_req, res, next) {
    const client = build.manifest.reload;
    if (client) {
      res.locals.pageHead = (nonce) => (
        <>
          <meta name={META.build} content={build.id} />
          <script type="module" src={client.file} nonce={nonce} />
        </>
      );
    }
    next();
  });
  dev.use(app);
  return dev;
}
