// The build's command line (docs/islands.md §4); the build itself is the module in build/.
//
//   node build.mjs                                  → dist/ (client and server, production)
//   node build.mjs --client                         → dist/ (client only)
//   node build.mjs --islands test/islands --out DIR → also test-only islands, into DIR
//   node build.mjs --forms test/fixtures/forms.ts   → the rule lists of the forms that module's `FORMS` lists
//   node build.mjs --force                          → builds even when the build folder is up to date
//
// NODE_ENV=development builds unminified with source maps and the reload client. A build folder
// that already holds the build of these sources is left as it is (build/fingerprint.mjs).
import { existsSync } from 'node:fs';
import { join, relative } from 'node:path';
import { parseArgs } from 'node:util';
import { FINGERPRINT_FILE, builtAlready, fingerprint, recordFingerprint } from './build/fingerprint.mjs';
import { ROOT, withRoot } from './build/paths.mjs';

const { values: args } = parseArgs({ options: { islands: { type: 'string', multiple: true }, forms: { type: 'string' }, out: { type: 'string' }, client: { type: 'boolean' }, force: { type: 'boolean' } } });
/** @type {'production' | 'development'} */
const mode = process.env.NODE_ENV === 'development' ? 'development' : 'production';
const options = { out: args.out ?? 'dist', islandDirs: ['islands', ...(args.islands ?? [])], ...(args.forms && { forms: args.forms }), mode };
const out = withRoot(ROOT, options.out);
// Loaded only for a build: an up-to-date start need not load esbuild, swc and sharp. With no
// fingerprint recorded (a fresh clone) a build is certain: they load, and it runs, while the
// sources hash.
const loadBuild = () => import('./build/index.mjs');
const certain = args.force || !existsSync(join(out, FINGERPRINT_FILE));
const loading = certain ? loadBuild() : undefined;
try {
  // A certain build does not wait for the sources' hash: it is recorded when the build is done.
  const printing = fingerprint(ROOT, { ...options, client: args.client === true });
  printing.catch(() => {}); // awaited below, after the build, whose failure is the one reported
  if (!certain && (await builtAlready(out, await printing))) {
    console.log(`build (${mode}): ${relative(ROOT, out)}/ is up to date`);
    process.exit(0);
  }
  await recordFingerprint(out);
  const { build, buildClient } = await (loading ?? loadBuild());
  if (args.client) {
    const result = await buildClient(options);
    console.log(`build ${result.manifest.buildId} (${mode}): ${result.files.length} client files in ${result.ms} ms`);
  } else {
    const result = await build(options);
    console.log(`build ${result.manifest.buildId} (${mode}): ${result.files.length} client files and ${relative(ROOT, result.server)} in ${result.ms} ms`);
  }
  await recordFingerprint(out, await printing);
} catch (error) {
  const { formatBuildErrors } = await import('./build/index.mjs');
  console.error(await formatBuildErrors(error, process.stderr.isTTY));
  process.exit(1);
}
