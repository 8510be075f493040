/**
 * What development adds to the production pipeline (docs/development.md §1–§2, §6), as steps of it
 * (src/pipeline.ts): only the names the development server answers, and the reload client, with
 * the id of the build each page shows, in the head of every page. Both paths run them, the fast
 * path beside Express as well (docs/streaming.md §7), so development serves what production
 * serves; the production pipeline names neither. The reload channel itself is the runner's
 * (src/dev/front.ts).
 */
import type { RequestHandler } from 'express';
import { META } from '../../protocol/meta.js';
import type { AddedStep } from '../pipeline.js';
import type { PageHead } from '../render/types.js';
import { hostRefusal, refuseHost } from './allowed-hosts.js';
import type { PageBuild } from './page-build.js';

/**
 * The reload client and `<meta name="eiland-build">` of the build pages show now; undefined for a
 * build without a reload client. Its key names the id and the client's file, so a cached page is
 * kept per build it shows (docs/streaming.md §6), its nonce a hole like every script's.
 */
function reloadHead(build: PageBuild): PageHead | undefined {
  const client = build.manifest.reload;
  if (!client) return undefined;
  const { id } = build;
  return {
    key: JSON.stringify([id, client.file]),
    render: (nonce) => (
      <>
        <meta name={META.build} content={id} />
        <script type="module" src={client.file} nonce={nonce} />
      </>
    ),
  };
}

/**
 * The development steps, right after the request's context: a refusal of any name the development
 * server does not answer (a plain 403, or the 400 of two `Host` lines; the fast path leaves such a
 * request to Express), then the reload client in the head of every page (page data carries none).
 * @param build the build pages show, as the runner last sent it
 * @param allowedHosts the names it answers besides localhost and the loopback addresses
 *   (`parseAllowedHosts`); the runner's front checks the same before it forwards, and these steps
 *   check again for a request sent to the server's own loopback port
 * @returns the steps for `createApp`'s `steps`
 * @example startServer(config, { assets, steps: developmentSteps(assets.build, ['eiland.test']) })
 */
export function developmentSteps(build: PageBuild, allowedHosts: readonly string[] = []): AddedStep[] {
  const allowedHost: RequestHandler = function allowedHost(req, res, next) {
    const refusal = hostRefusal(req, allowedHosts);
    if (refusal === undefined) next();
    else refuseHost(res, refusal);
  };
  const reloadClient: RequestHandler = function reloadClient(_req, res, next) {
    res.locals.pageHead = reloadHead(build);
    next();
  };
  return [
    // First but for the context (which the fast path sets as a whole): a refused request gets the
    // front's answer, two Host lines included, with nothing of the site's (docs/development.md §6).
    {
      after: 'context',
      step: { name: 'development host', handler: allowedHost, beside: { kind: 'check', refuses: ({ req }) => hostRefusal(req, allowedHosts) !== undefined } },
    },
    {
      after: 'development host',
      step: { name: 'reload client', handler: reloadClient, beside: { kind: 'runs', run: ({ res }) => void (res.locals.pageHead = reloadHead(build)) } },
    },
  ];
}
