// The limit beside Eiland in `npm run bench` (docs/performance.md §2): a server with nothing to do
// but send the bytes of Eiland's cached pages as they are, status, headers and body, captured
// from a running Eiland (bench/servers.mjs, `capturePages`).
//
//   node bench/reference-server.mjs express PAGES.json   Express 5 with no middleware (no ETag,
//                                                         no X-Powered-By: Express's own cost)
//   node bench/reference-server.mjs http PAGES.json      Node's http module alone, and the form
//                                                         post at its floor (bench/reference-post.ts,
//                                                         bundled beside PAGES.json): `POST /aanmelden`
//
// PAGES.json: { "<path>": { "headers": { name: value }, "body": "<base64>" } }. Another path is a
// 404. Listens on PORT (0: any) of 127.0.0.1 and prints a `server_started` line with its port.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createServer } from 'node:http';
import express from 'express';

const [kind, file] = process.argv.slice(2);
/** @type {Record<string, { headers: Record<string, string | string[]>, body: Buffer }>} */
const pages = Object.fromEntries(Object.entries(JSON.parse(readFileSync(String(file), 'utf8'))).map(([path, page]) => [path, { headers: page.headers, body: Buffer.from(page.body, 'base64') }]));

/** @type {import('node:http').RequestListener} */
let handler;
if (kind === 'express') {
  const app = express();
  app.set('etag', false);
  app.set('x-powered-by', false);
  for (const [path, page] of Object.entries(pages)) app.get(path, (_req, res) => void res.set(page.headers).send(page.body));
  handler = app;
} else if (kind === 'http') {
  const folder = dirname(String(file));
  const bundled = join(folder, 'reference-post.mjs');
  const post = existsSync(bundled) ? (await import(pathToFileURL(bundled).href)).referencePost({ dbFile: join(folder, 'data', 'eiland.db'), mailDir: join(folder, 'reference-mail') }) : undefined;
  handler = (req, res) => {
    if (req.method === 'POST' && req.url === '/aanmelden' && post) return post(req, res);
    const page = pages[String(req.url)];
    if (!page) res.writeHead(404).end();
    else res.writeHead(200, page.headers).end(page.body);
  };
} else {
  throw new TypeError(`bench/reference-server.mjs: "express" or "http", not "${kind}"`);
}
const server = createServer(handler);
server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
  const address = server.address();
  console.log(JSON.stringify({ event: 'server_started', port: typeof address === 'object' && address ? address.port : 0 }));
});
process.on('SIGTERM', () => {
  server.close(() => process.exit(0));
  server.closeAllConnections();
});
