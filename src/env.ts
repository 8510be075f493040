// Preloaded by every entry (`node --import ./src/env.ts`, see package.json),
// before any module: with NODE_ENV unset, React would load its development
// build, which puts error messages and stacks into the HTML of failed Suspense
// boundaries (docs/errors.md §4). Development has to be asked for.
process.env.NODE_ENV ??= 'production';
