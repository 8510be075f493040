// The C allocator settings the server runs with in production (`npm start` sets the same in
// package.json; docs/operations.md §4). glibc's malloc, left alone, gives each thread that
// allocates an arena of its own and moves its mmap threshold up after large frees, so libvips'
// image buffers (sharp) stay in the process: RSS measured 301 MB under page and image load
// together, 193 MB with these (target ≤ 200 MB). Read by the benchmark and the tests, which start
// the bundle as production does. glibc reads them at process start only: they cannot be set later.

/** One malloc arena for all threads; large blocks always mmapped, so their pages go back at once. */
export const ALLOCATOR_ENV = Object.freeze({ MALLOC_ARENA_MAX: '1', MALLOC_MMAP_THRESHOLD_: '131072' });
