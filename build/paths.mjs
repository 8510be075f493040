// Where the build reads and writes (docs/islands.md §4): every path is anchored on the project
// root, the folder above this one, so the same code runs from any working directory.
import { createHash } from 'node:crypto';
import { isAbsolute, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The project root: the folder of `package.json` and `build.mjs`. */
export const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** The server bundle, relative to the build folder (what `npm start` runs). */
export const SERVER_ENTRY = 'server/main.js';

/** Sources, relative to the root. */
export const SOURCES = {
  styles: 'views/styles.css',
  /** The island runtime: hydrates islands (docs/islands.md §2). */
  runtime: 'islands/runtime/islands.ts',
  /** The client router: on every page (docs/navigation.md). */
  router: 'islands/runtime/router.ts',
  /** The reload client: development builds only (docs/development.md §2). */
  reload: 'islands/runtime/reload.ts',
  /** The declared routes: their kinds and islands (protocol/routes.json). */
  routes: 'protocol/routes.json',
  /** Every form's browser rule list, evaluated at build time (docs/forms.md §5, §8). */
  rules: 'src/forms/browser-rule-lists.ts',
  /** The server's entry in each mode. */
  server: { production: 'src/main.ts', development: 'src/dev/main.ts' },
  /** The staff command's entry, bundled beside the production server (docs/beheer.md §1). */
  staff: 'src/staff.ts',
  /** The outbox's sender's worker, bundled beside every server (src/mail/thread.ts finds it there). */
  mailWorker: 'src/mail/worker.ts',
  /** The SVGs the build renders (docs/images.md §3). */
  images: 'images',
};

/**
 * The build's cache folder of one project: under `node_modules/.cache/eiland/`, in a folder named
 * by a hash of the project's root, so two checkouts sharing one `node_modules` (a link, a
 * monorepo's hoisting) never read each other's rule lists or prune each other's minified copies.
 * @param {string} root the project root (absolute)
 */
export const cacheDir = (root) => join(root, 'node_modules', '.cache', 'eiland', createHash('sha256').update(root).digest('hex').slice(0, 16));

/**
 * A path as given when absolute, else under the root.
 * @param {string} root
 * @param {string} path
 */
export const withRoot = (root, path) => (isAbsolute(path) ? path : join(root, path));
