// A command run on a loaded machine (docs/qa-kit.md §1): two CPU-bound processes beside it, as
// on a developer's machine with a build and a browser busy, or a shared CI runner. The suite must
// pass so.
//
//   npm run test:loaded                       → npm test, with two busy processes beside it
//   npm run test:loaded -- --times 3          → three times in a row, stopping at the first failure
//   npm run test:loaded -- bash .ci/run       → another command (here: CI's, on a fresh clone);
//                                                after `--` when it has options of its own
//
// Each run's time and result is printed; the exit code is the first failing run's, else 0.
import { spawn } from 'node:child_process';
import { parseArgs } from 'node:util';

const { values: options, positionals } = parseArgs({ options: { times: { type: 'string', default: '1' }, busy: { type: 'string', default: '2' } }, allowPositionals: true });
const times = Number(options.times);
const busy = Number(options.busy);
if (!Number.isInteger(times) || times < 1 || !Number.isInteger(busy) || busy < 0) {
  console.error('test:loaded: --times is a whole number from 1, --busy one from 0');
  process.exit(2);
}
const [command = 'npm', ...args] = positionals.length > 0 ? positionals : ['npm', 'test'];

/** A process that keeps one core busy until it is killed. */
const burner = () => spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' });
const burners = Array.from({ length: busy }, burner);
const killBurners = () => burners.forEach((child) => child.kill('SIGKILL'));
// However this script ends: a process still running at its exit is killed.
process.on('exit', killBurners);

/**
 * Kills the busy processes and waits until each has ended, so none is left once this script exits.
 * @returns {Promise<void>}
 */
async function stopBurners() {
  const ended = burners.map((child) => (child.exitCode !== null || child.signalCode !== null ? undefined : new Promise((done) => child.once('exit', done))));
  killBurners();
  await Promise.all(ended);
}

/**
 * Runs the command once.
 * @returns {Promise<number>} its exit code
 */
function runOnce() {
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: 'inherit' });
    /** @param {NodeJS.Signals} signal */
    const forward = (signal) => child.kill(signal);
    process.once('SIGINT', forward).once('SIGTERM', forward);
    child.on('exit', (code, signal) => {
      process.off('SIGINT', forward).off('SIGTERM', forward);
      resolve(code ?? (signal ? 1 : 0));
    });
  });
}

let failed = 0;
for (let run = 1; run <= times && failed === 0; run++) {
  const started = Date.now();
  const code = await runOnce();
  const seconds = Math.round((Date.now() - started) / 1000);
  console.log(`test:loaded: run ${run} of ${times}, ${[command, ...args].join(' ')} beside ${busy} busy processes: ${code === 0 ? 'passed' : `failed (exit ${code})`} in ${seconds} s`);
  failed = code;
}
await stopBurners();
process.exit(failed);
