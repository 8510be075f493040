// `npm run bench:dev` (docs/performance.md §1, docs/development.md §1): how long an edit takes to
// show under `npm run dev`. In a copy of the project it runs the dev runner, opens a page in
// Chromium with its reload client connected, and saves a view, an island and a server module in
// turn, timing each save until the open page shows the change (and, for the island, its marker is
// ready to hydrate). Each kind is edited ROUNDS times, back and forth; the medians are checked
// against the budget. Run it on a quiet machine: it is a timing, not a test.
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { launchChromium } from '../test/e2e/kit.js';
import { copyProject, startProcess } from '../test/helpers/project.js';

/** The budget of an edit on screen, in ms (median per kind). */
const BUDGET_MS = 500;
/** Edits per kind. */
const ROUNDS = Number(process.env.ROUNDS ?? 7);
const READY = /ready at (http:\/\/127\.0\.0\.1:\d+)/;

/**
 * The edits: a file, two texts it toggles between, the page that shows it, and what the page shows
 * once the edit is there (a function of the new text, evaluated in the page).
 * @type {Array<{ kind: string, file: string, texts: [string, string], path: string, shows: (text: string) => string }>}
 */
const EDITS = [
  { kind: 'view', file: 'views/pages/Over.tsx', texts: ['<h1>Over deze site</h1>', '<h1>Over dit eiland</h1>'], path: '/over', shows: (text) => `document.querySelector('h1')?.outerHTML === ${JSON.stringify(text)}` },
  {
    kind: 'island',
    file: 'islands/RegistrationForm.tsx',
    texts: ['Meld je aan in een minuut.', 'Meld je snel aan.'],
    path: '/aanmelden',
    shows: (text) => `document.querySelector('main p')?.textContent.includes(${JSON.stringify(text)}) && document.querySelector('[data-island]')?.dataset.hydrated === 'pending'`,
  },
  { kind: 'server', file: 'src/routes/pages.tsx', texts: ["title: 'Over deze site'", "title: 'Over Eiland'"], path: '/over', shows: (text) => `document.title === ${JSON.stringify(`${text.slice(8, -1)} · Eiland`)}` },
];

const median = (/** @type {number[]} */ values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;

const project = await copyProject();
const env = { ...process.env, PORT: '0', LOG_LEVEL: 'info' }; // the runner says it is ready on the server's server_started line
delete env.NODE_ENV;
const dev = startProcess('npm', ['run', 'dev'], { cwd: project.dir, env });
const chromium = await launchChromium();
let failed = false;
try {
  const base = /** @type {string} */ ((await dev.waitFor(READY, 60_000))[1]);
  for (const { kind, file, texts, path, shows } of EDITS) {
    const page = await chromium.browser.newPage();
    const connected = page.waitForResponse((r) => r.url().endsWith('/_eiland/reload') && r.status() === 200);
    await page.goto(base + path);
    await connected;
    const source = join(project.dir, file);
    /** @type {number[]} */
    const times = [];
    for (let round = 0; round < ROUNDS; round++) {
      const [from, to] = round % 2 === 0 ? texts : [texts[1], texts[0]];
      const text = await readFile(source, 'utf8');
      if (!text.includes(from)) throw new Error(`${file} holds no ${from}`);
      await new Promise((r) => setTimeout(r, 300)); // the last reload has settled
      const started = performance.now();
      await writeFile(source, text.replace(from, to));
      await page.waitForFunction(shows(to), { timeout: 15_000, polling: 'raf' });
      times.push(performance.now() - started);
    }
    await page.close();
    const typical = median(times);
    const pass = typical <= BUDGET_MS;
    failed ||= !pass;
    console.log(`${kind.padEnd(7)} edit on screen: median ${typical.toFixed(0)} ms (${times.map((t) => t.toFixed(0)).join(', ')}) ≤ ${BUDGET_MS} ms ${pass ? 'PASS' : 'FAIL'}`);
  }
} finally {
  await chromium.close();
  await dev.stop();
  await project.remove();
}
process.exit(failed ? 1 : 0);
