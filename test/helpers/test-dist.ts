/**
 * The tests' client build, `dist-test/` (`npm run build:test`, run by every test script before its
 * tests): the site's islands, the test islands (test/islands/) and the rule lists of the test
 * app's forms (test/fixtures/forms.ts), so the test app serves the test's own form as the site
 * serves its forms.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { BuildManifest } from '../../protocol/manifest.js';
import { productionAssets, type AssetsSource } from '../../src/assets/source.js';
import { FORMS as SITE_FORMS } from '../../src/forms/index.js';
import { PROJECT_ROOT } from '../../src/project-root.js';

/** The tests' build folder. */
export const TEST_DIST = join(PROJECT_ROOT, 'dist-test');

/**
 * The tests' build, as the app reads a build.
 * @throws Error when it has not been built, saying how to build it
 */
export function testAssets(): AssetsSource {
  if (!existsSync(join(TEST_DIST, 'manifest.json'))) throw new Error('dist-test/ is missing: run "npm run build:test" (every test script runs it)');
  return productionAssets(TEST_DIST);
}

/** The tests' build manifest. */
export const testManifest = (): BuildManifest => testAssets().current();

/**
 * The app options of a suite about the site's own build (`dist/`, what `npm start` serves): its
 * assets and the site's forms only, for a test that compares what is served with that build.
 */
export const siteBuild = (): { assets: AssetsSource; forms: typeof SITE_FORMS } => ({ assets: productionAssets(join(PROJECT_ROOT, 'dist')), forms: SITE_FORMS });
