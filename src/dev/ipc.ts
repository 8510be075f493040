/**
 * The messages between the development runner (`scripts/dev-runner.mjs`) and the server processes it
 * starts (docs/development.md §1), over Node's IPC channel. One type for each direction, read by
 * both sides (the runner through JSDoc).
 */
import type { BuildManifest } from '../../protocol/manifest.js';

/** From the runner: the client build pages are to be rendered with, and the id they show. */
export type RunnerMessage = { type: 'build'; manifest: BuildManifest; id: string };

/**
 * From the server: it listens on `port` (loopback) and takes messages now; or it renders with
 * the build `id` from now on (the answer to a {@link RunnerMessage}).
 */
export type ServerMessage = { type: 'listening'; port: number } | { type: 'showing'; id: string };

/**
 * Whether a value received over IPC is a {@link RunnerMessage}.
 * @param message anything `process.on('message')` delivered
 */
export function isRunnerMessage(message: unknown): message is RunnerMessage {
  const m = message as Partial<RunnerMessage> | null;
  return m?.type === 'build' && typeof m.id === 'string' && typeof m.manifest === 'object' && m.manifest !== null;
}
