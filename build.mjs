// The build's command line (docs/islands.md §4); the build itself is the module in build/.
//
//   node build.mjs                                  → dist/ (client and server, production)
//   node build.mjs --client                         → dist/ (client only)
//   node build.mjs --islands test/islands --out DIR → also test-only islands, into DIR
//
// NODE_ENV=development builds unminified with source maps and the reload client.
import { relative } from 'node:path';
import { parseArgs } from 'node:util';
import { build, buildClient, formatBuildErrors, ROOT } from './build/index.mjs';

const { values: args } = parseArgs({ options: { islands: { type: 'string', multiple: true }, out: { type: 'string' }, client: { type: 'boolean' } } });
/** @type {'production' | 'development'} */
const mode = process.env.NODE_ENV === 'development' ? 'development' : 'production';
const options = { out: args.out ?? 'dist', islandDirs: ['islands', ...(args.islands ?? [])], mode };
try {
  if (args.client) {
    const result = await buildClient(options);
    console.log(`build ${result.manifest.buildId} (${mode}): ${result.files.length} client files in ${result.ms} ms`);
  } else {
    const result = await build(options);
    console.log(`build ${result.manifest.buildId} (${mode}): ${result.files.length} client files and ${relative(ROOT, result.server)} in ${result.ms} ms`);
  }
} catch (error) {
  console.error(await formatBuildErrors(error, process.stderr.isTTY));
  process.exit(1);
}
