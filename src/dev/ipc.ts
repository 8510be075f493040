/**
 * The messages between the development runner (`scripts/dev.mjs`) and the server it forks
 * (docs/development.md §1), over Node's IPC channel. One type for each direction, read by both
 * sides (the runner through JSDoc).
 */
import type { BuildManifest } from '../../protocol/manifest.js';

/** From the runner: a good client build's manifest, or what a failed build printed. */
export type RunnerMessage = { type: 'client-built'; manifest: BuildManifest } | { type: 'build-failed'; message: string };

/** From the server: it listens for messages now (one sent earlier could be lost). */
export type ServerMessage = { type: 'ready' };

/**
 * Whether a value received over IPC is a {@link RunnerMessage}.
 * @param message anything `process.on('message')` delivered
 */
export function isRunnerMessage(message: unknown): message is RunnerMessage {
  const m = message as Partial<RunnerMessage> | null;
  if (m?.type === 'client-built') return typeof (m as { manifest?: unknown }).manifest === 'object' && (m as { manifest?: unknown }).manifest !== null;
  return m?.type === 'build-failed' && typeof (m as { message?: unknown }).message === 'string';
}
