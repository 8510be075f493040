/**
 * The development reload client (docs/development.md §2), on every page `npm run dev` serves and on
 * none in production (the production build has no such entry). Browser code only.
 */
import { META } from '../../protocol/meta.js';
import { RELOAD_PATH } from '../../protocol/reload.js';
import { showBuildOverlay } from './build-overlay.js';
import { startReloadClient } from './reload-client.js';

startReloadClient({
  url: RELOAD_PATH,
  buildId: document.querySelector(`meta[name="${META.build}"]`)?.getAttribute('content') ?? '',
  connect: (url) => new EventSource(url),
  reload: () => location.reload(),
  showFailure: showBuildOverlay,
});
