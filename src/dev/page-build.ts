/**
 * The build a development server renders its pages with (docs/development.md §1–§2): the client
 * manifest and the id open pages compare with the reload channel's, both as the runner last sent
 * them over IPC.
 */
import type { BuildManifest } from '../../protocol/manifest.js';
import type { AssetsSource } from '../assets/source.js';
import { readManifest } from '../assets/manifest.js';
import { isRunnerMessage } from './ipc.js';

/** The client build and id this server's pages show. */
export class PageBuild {
  /** The id pages carry in `<meta name="eiland-build">`; the runner's (empty until it sends one). */
  id = '';

  constructor(public manifest: BuildManifest) {}

  /**
   * Takes a message from the runner.
   * @returns the id now shown, or undefined for anything that is not a
   *   {@link import('./ipc.js').RunnerMessage} (it arrives over IPC, untyped)
   */
  receive(message: unknown): string | undefined {
    if (!isRunnerMessage(message)) return undefined;
    this.manifest = message.manifest;
    this.id = message.id;
    return this.id;
  }
}

/**
 * The development client build: starts from the manifest in `dir` (the runner's last good build);
 * the runner then feeds it through {@link PageBuild.receive}.
 * @param dir the development build folder (e.g. `.eiland/dev`)
 * @throws Error when the manifest is missing
 */
export function developmentAssets(dir: string): AssetsSource & { build: PageBuild } {
  const build = new PageBuild(readManifest(`${dir}/manifest.json`, 'npm run dev'));
  return { dir, build, current: () => build.manifest };
}
