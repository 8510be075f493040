/**
 * What each island's bundle carries (docs/islands.md §4): the production client build made in
 * memory (esbuild's metafile; React's module is written to a temporary folder), and for each
 * island the source files of every output its entry loads statically, React's module left out.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as esbuild from 'esbuild';
import { clientBuilds } from '../../build/client.mjs';
import { ROOT } from '../../build/paths.mjs';
import { deriveRules } from '../../build/rules.mjs';
import type { FormRules } from '../../protocol/rules.js';

/** The islands of a build and what each carries. */
export interface IslandBundles {
  /** Island name → the project files its bundle carries, relative to the root (`islands/lib/validate.ts`). */
  inputs: Readonly<Record<string, ReadonlySet<string>>>;
  /** Island name → its source file, relative to the root (`islands/ContactForm.tsx`). */
  sources: Readonly<Record<string, string>>;
  /** Form island name → the rule list its entry registers. */
  lists: Readonly<Record<string, FormRules>>;
}

/**
 * Builds the islands of some folders as production does and lists what each island's bundle carries.
 * @param islandDirs folders of islands, relative to the root (default: the site's)
 */
export async function islandBundles(islandDirs: string[] = ['islands']): Promise<IslandBundles> {
  const derived = await deriveRules(ROOT);
  const out = await mkdtemp(join(tmpdir(), 'eiland-islands-'));
  try {
    const { islands, options } = await clientBuilds({ root: ROOT, out, islandDirs, production: true, rules: Promise.resolve(derived) });
    const { metafile } = await esbuild.build({ ...options[0]!, write: false });
    const outputs = metafile!.outputs;
    /** Every output of this build an output imports statically, transitively, with itself (not React's module, imported by URL). */
    const graph = (file: string, seen = new Set<string>()): Set<string> => {
      seen.add(file);
      for (const imported of outputs[file]!.imports) if (imported.kind === 'import-statement' && !imported.external && !seen.has(imported.path)) graph(imported.path, seen);
      return seen;
    };
    const inputs = Object.fromEntries(
      Object.entries(islands).map(([island, entryPoint]) => {
        const entry = Object.keys(outputs).find((file) => outputs[file]!.entryPoint === entryPoint);
        if (!entry) throw new Error(`The build has no output for the island "${island}"`);
        return [island, new Set([...graph(entry)].flatMap((file) => Object.keys(outputs[file]!.inputs)))];
      }),
    );
    const sources = Object.fromEntries(Object.keys(islands).map((island) => [island, islandDirs.map((dir) => join(dir, `${island}.tsx`)).find((file) => existsSync(join(ROOT, file)))!]));
    return { inputs, sources, lists: derived.lists };
  } finally {
    await rm(out, { recursive: true, force: true });
  }
}
