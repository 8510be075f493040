/**
 * The production entry (`npm start` runs its bundle; docs/operations.md §4): validates the
 * configuration, serves `dist/`, and shuts down gracefully on a stop signal with exit code 0.
 */
import { setFlagsFromString } from 'node:v8';
import { runServerProcess } from './process.js';

/**
 * V8 lets the old generation grow to several times what survives a full collection before it
 * collects again: under load that is ~100 MB of garbage around a ~25 MB live heap. Growing by
 * half keeps the heap near what the server holds (docs/performance.md §1: peak RSS ≤ 150 MB;
 * measured 204 → 141 MB at 32 connections). Set before the server allocates.
 */
const HEAP_GROWING_PERCENT = 50;
setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);

await runServerProcess('production');
