// How the server process is started in production (`npm start` does the same in package.json;
// docs/operations.md §4). Read by the benchmark and the tests, which start the bundle as production
// does. Both are read at process start only: they cannot be set from inside the server.
//
// glibc's malloc, left alone, gives each thread that allocates an arena of its own and moves its
// mmap threshold up after large frees, so libvips' image buffers (sharp) stay in the process and
// RSS under page and image load together goes over its target (docs/performance.md §1, §5).

/** One malloc arena for all threads; large blocks always mmapped, so their pages go back at once. */
export const ALLOCATOR_ENV = Object.freeze({ MALLOC_ARENA_MAX: '1', MALLOC_MMAP_THRESHOLD_: '131072' });

/**
 * V8's young generation at 8 MB a semi-space instead of 16: peak RSS under the benchmark's load
 * lower, for requests a second within the noise (docs/performance.md §5).
 */
export const NODE_FLAGS = Object.freeze(['--max-semi-space-size=8']);
