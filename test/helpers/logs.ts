/**
 * The log lines of an app or server a test starts (docs/operations.md §2): pino's output captured
 * in memory, line by line.
 */
import { Writable } from 'node:stream';

/** One parsed pino line. */
export type LogLine = Record<string, unknown> & { msg?: string; reqId?: string; level: number };

/**
 * Collects pino's output lines.
 * @returns the stream to give the logger (`logStream`), and the lines written to it so far, raw
 */
export function logCollector(): { stream: Writable; lines: string[] } {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      lines.push(...chunk.toString('utf8').split('\n').filter((l) => l !== ''));
      done();
    },
  });
  return { stream, lines };
}
