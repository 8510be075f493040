/**
 * Astro configuration of the benchmark's comparison app: server output on @astrojs/node
 * (standalone: its own HTTP server), React for the form island. The pages import Eiland's own
 * files from the repository root (views/styles.css, islands/, protocol/, src/storage/).
 */
import node from '@astrojs/node';
import react from '@astrojs/react';
import { defineConfig } from 'astro/config';

export default defineConfig({
  output: 'server',
  adapter: node({ mode: 'standalone' }),
  integrations: [react()],
  // Like Eiland and the Next app: no compression of HTML (a proxy's job), and no prefetch script.
  compressHTML: false,
  prefetch: false,
  devToolbar: { enabled: false },
  vite: {
    // The native SQLite driver comes from the repository root's node_modules, as in the Next app;
    // validator.js's ES modules import without file extensions, which Node cannot load: bundled.
    ssr: { external: ['better-sqlite3'], noExternal: ['validator'] },
  },
});
