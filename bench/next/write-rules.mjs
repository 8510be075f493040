/**
 * Writes rules.json: the rule list Eiland derives from its RegistrationDto
 * (src/forms/browser-rule-lists.ts), which the Next page registers for the form island as
 * Eiland's build does, and lib/registration-checks.mjs, which registers the checks of the rules
 * the list names, as Eiland's build writes them into the island's entry (build/form-islands.mjs).
 * Rewrites each file only when it changed, so an unchanged list does not trigger a rebuild.
 *
 *   node bench/next/write-rules.mjs      (from anywhere; needs the root's npm install: tsx)
 */
import { execFile } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { checkRegistration } from '../../build/form-islands.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const eiland = resolve(here, '../..');

/** The file the pages import. */
export const RULES_FILE = join(here, 'rules.json');
/** The module that registers the list's checks, imported by both peers. */
const CHECKS_FILE = join(here, 'lib', 'registration-checks.mjs');

// Eiland's own derivation: what its build evaluates and puts in the island's entry.
const PRINT_RULES = `
const { ruleLists } = await import('./src/forms/browser-rule-lists.ts');
const { FORMS } = await import('./src/forms/index.ts');
process.stdout.write(JSON.stringify(ruleLists(FORMS).RegistrationForm, null, 2) + '\\n');
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
  const checks = ['// Written by bench/next/write-rules.mjs from rules.json: the checks of the rules it names.', ...checkRegistration(rules, '../../../islands/lib', '.js'), ''].join('\n');
  const written = await Promise.all([writeChanged(RULES_FILE, stdout), writeChanged(CHECKS_FILE, checks)]);
  return written.some(Boolean);
}

/** Writes a file unless it holds this text already; whether it wrote. */
async function writeChanged(file, text) {
  if ((await readFile(file, 'utf8').catch(() => '')) === text) return false;
  await writeFile(file, text);
  return true;
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const written = await writeRules();
  console.log(written ? `wrote ${RULES_FILE} and ${CHECKS_FILE}` : `${RULES_FILE} and ${CHECKS_FILE} are up to date`);
}
