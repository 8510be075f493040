// Precompressed twins of the assets (docs/islands.md §4), served by `Accept-Encoding`.
import { existsSync } from 'node:fs';
import { readFile, stat, utimes } from 'node:fs/promises';
import { promisify } from 'node:util';
import { brotliCompress, constants, gunzip as gunzipCallback, gzip } from 'node:zlib';
import { writeAtomically } from './files.mjs';

const brotli = promisify(brotliCompress);
const gz = promisify(gzip);
const gunzip = promisify(gunzipCallback);

/**
 * Writes a `.br` (quality 11) and a `.gz` (level 9) beside each file (production; development
 * serves plain files). Twins already beside their file are kept when the gzip twin unpacks to the
 * file (a name carries esbuild's content hash, but the second minification changes the bytes
 * under the same name): only new files are compressed (brotli at quality 11 is most of a build).
 * Asynchronous zlib runs on libuv's thread pool, so the files compress in parallel. Each twin
 * gets its file's modification time, so every variant of an asset answers the same
 * `Last-Modified` (docs/pages.md §2).
 * @param {string[]} files absolute paths
 */
export async function compress(files) {
  await Promise.all(
    files.map(async (file) => {
      const data = await readFile(file);
      const kept = existsSync(`${file}.br`) && existsSync(`${file}.gz`) && (await gunzip(await readFile(`${file}.gz`))).equals(data);
      if (!kept) {
        const [br, gzipped] = await Promise.all([brotli(data, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }), gz(data, { level: 9 })]);
        await Promise.all([writeAtomically(`${file}.br`, br), writeAtomically(`${file}.gz`, gzipped)]);
      }
      const { atime, mtime } = await stat(file);
      await Promise.all([utimes(`${file}.br`, atime, mtime), utimes(`${file}.gz`, atime, mtime)]);
    }),
  );
}
