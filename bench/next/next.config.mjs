/**
 * Next.js configuration of the benchmark's comparison app. The pages import
 * Eiland's own files from the repository root (views/, islands/, protocol/,
 * src/storage/), written TypeScript-NodeNext style: `.js` in the import names
 * `.ts`/`.tsx` files.
 */
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
/** The Eiland repository: the files outside bench/next that the pages compile. */
const eiland = resolve(here, '../..');

/** NodeNext-style imports: `./x.js` may name `./x.ts` or `./x.tsx`. */
const extensionAlias = { '.js': ['.ts', '.tsx', '.js'], '.mjs': ['.mts', '.mjs'] };

/** @type {import('next').NextConfig} */
const nextConfig = {
  // Like Eiland: no X-Powered-By, no compression and no ETag on (streamed) HTML responses.
  poweredByHeader: false,
  compress: false,
  generateEtags: false,
  // Native module from the root node_modules (Node resolution walks up to it): never bundled.
  serverExternalPackages: ['better-sqlite3'],
  // The island imports validator.js's per-function ES modules (`validator/es/lib/*.js`), which
  // only a bundler can load (their imports have no file extensions): bundle them on the server too.
  transpilePackages: ['validator'],
  // Files outside this folder are part of the app; trace and resolve from the repository root.
  outputFileTracingRoot: eiland,
  turbopack: {
    root: eiland,
  },
  experimental: {
    // For `next build --webpack`: compile the Eiland files outside this folder with SWC.
    externalDir: true,
  },
  // Used by `next build --webpack` only; Turbopack (the default) does both of these itself.
  webpack(config) {
    config.resolve.extensionAlias = { ...config.resolve.extensionAlias, ...extensionAlias };
    // One React: packages resolve from this folder first, so views/ and islands/ get the same
    // react as the pages (not the root's copy); the rest (validator) from the root's node_modules.
    config.resolve.modules = [join(here, 'node_modules'), ...(config.resolve.modules ?? ['node_modules'])];
    return config;
  },
};

export default nextConfig;
