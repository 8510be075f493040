// Build errors as esbuild prints them (docs/development.md §4).
import * as esbuild from 'esbuild';

/**
 * esbuild's errors as the text it prints (file, line, column, the source line).
 * @param {unknown} error a rejected build or a result's `errors`
 * @param {boolean} [color] terminal colours
 * @returns {Promise<string>}
 */
export async function formatBuildErrors(error, color = false) {
  /** @type {esbuild.Message[]} */
  const errors = Array.isArray(error) ? error : (/** @type {{ errors?: esbuild.Message[] } | null} */ (error)?.errors ?? []);
  if (errors.length === 0) return String(/** @type {{ message?: unknown } | null} */ (error)?.message ?? error);
  return (await esbuild.formatMessages(errors, { kind: 'error', color })).join('').trimEnd();
}
