/**
 * Writes rules.json: the rule list Eiland derives from its RegistrationDto
 * (src/forms/browser-rule-lists.ts), which the Next page registers for the form island as
 * Eiland's build does. Rewrites the file only when the list changed, so an unchanged
 * list does not trigger a rebuild.
 *
 *   node bench/next/write-rules.mjs      (from anywhere; needs the root's npm install: tsx)
 */
import { execFile } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';

const here = dirname(fileURLToPath(import.meta.url));
const eiland = resolve(here, '../..');

/** The file the pages import. */
export const RULES_FILE = join(here, 'rules.json');

// Eiland's own derivation: what its build evaluates and puts in the island's entry.
const PRINT_RULES = `
const { BROWSER_RULE_LISTS } = await import('./src/forms/browser-rule-lists.ts');
process.stdout.write(JSON.stringify(BROWSER_RULE_LISTS.RegistrationForm, null, 2) + '\\n');
`;

/**
 * Derives the rule list with Eiland's code (tsx, run in the repository root, where its
 * tsconfig.json is) and writes it to rules.json when it differs.
 * @returns whether rules.json was (re)written
 */
export async function writeRules() {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['--import', 'tsx', '--import', './src/env.ts', '--input-type=module', '-e', PRINT_RULES],
    { cwd: eiland, maxBuffer: 1 << 20 },
  );
  const rules = JSON.parse(stdout);
  if (typeof rules !== 'object' || rules === null || Object.keys(rules).length === 0) throw new Error(`No rule list from Eiland: ${stdout.slice(0, 200)}`);
  const prior = await readFile(RULES_FILE, 'utf8').catch(() => '');
  if (prior === stdout) return false;
  await writeFile(RULES_FILE, stdout);
  return true;
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const written = await writeRules();
  console.log(written ? `wrote ${RULES_FILE}` : `${RULES_FILE} is up to date`);
}
