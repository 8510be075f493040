/**
 * The production entry (`npm start` runs its bundle; docs/operations.md §4): validates the
 * configuration, serves `dist/`, and shuts down gracefully on a stop signal with exit code 0.
 */
import { setFlagsFromString } from 'node:v8';
import { runServerProcess } from './process.js';

/**
 * V8 lets the old generation grow to several times what survives a full collection before it
 * collects again: under load, mostly garbage. Growing by half keeps the heap near what the
 * server holds, and peak RSS within its budget (docs/performance.md §1, §5). Set before the
 * server allocates.
 */
const HEAP_GROWING_PERCENT = 50;
setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);

await runServerProcess('production');
