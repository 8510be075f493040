/**
 * The project root: one anchor for every path (the database, the build, the public folder),
 * found the same way from the sources and from the bundle.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { findProjectRoot } from '../src/project-root.js';

describe('the project root (one anchor for every path)', () => {
  it('is the nearest folder with a package.json, from src/ and from the bundle alike', () => {
    const root = process.cwd();
    assert.equal(findProjectRoot(join(root, 'src', 'build')), root);
    assert.equal(findProjectRoot(join(root, 'dist', 'server')), root);
  });

  it('refuses a path with no package.json above it', () => {
    assert.throws(() => findProjectRoot('/'), /No package\.json above \/: cannot find the Eiland project root/);
  });
});
