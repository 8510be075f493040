/**
 * Development wraps production (docs/development.md §1–§2): only the names the development server
 * answers (docs/development.md §6), and the reload client, with the id of the build each page
 * shows, in the head of every page the production app renders; the production app knows nothing
 * of them. The reload channel itself is the runner's (src/dev/front.ts).
 */
import express, { type Express } from 'express';
import { META } from '../../protocol/meta.js';
import { hostRefusal, refuseHost } from './allowed-hosts.js';
import type { PageBuild } from './page-build.js';

/**
 * The development app: the production app, answering only the development server's names, with
 * the reload client in every page it renders (page data carries none).
 * @param app the production app (`createApp`)
 * @param build the build pages show
 * @param allowedHosts the names it answers besides localhost and the loopback addresses
 *   (`parseAllowedHosts`); the runner's front checks the same before it forwards, and this app
 *   checks again for a request sent to its own loopback port
 * @example startServer(config, { assets, wrap: (app) => developmentApp(app, assets.build, ['eiland.test']) })
 */
export function developmentApp(app: Express, build: PageBuild, allowedHosts: readonly string[] = []): Express {
  const dev = express();
  dev.disable('x-powered-by');
  dev.use(function allowedHost(req, res, next) {
    const refusal = hostRefusal(req, allowedHosts);
    if (refusal === undefined) next();
    else refuseHost(res, refusal);
  });
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
