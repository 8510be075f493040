/**
 * The development reload client (product.md §11), on every page `npm run dev` serves and on
 * none in production (the production build has no such entry). Browser code only.
 */
import { RELOAD_PATH } from '../../src/shared/reload-schedule.js';
import { showBuildOverlay } from './build-overlay.js';
import { startReloadClient } from './reload-client.js';

startReloadClient({
  url: RELOAD_PATH,
  buildId: document.querySelector('meta[name="eiland-build"]')?.getAttribute('content') ?? '',
  connect: (url) => new EventSource(url),
  reload: () => location.reload(),
  showFailure: showBuildOverlay,
});
