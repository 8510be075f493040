/**
 * The disk cache of image variants (docs/images.md §7): one file per variant in a folder, bounded
 * in bytes, least recently used out first. The folder itself is the cache: instances that share
 * it (docs/images.md §7) see each other's variants, and the bound holds for the folder as a whole,
 * because every write is followed by a trim over every file in it, oldest use first (a file's
 * modification time is its last use, touched on every hit). Each file is written to a temporary
 * name and renamed, so a crash never leaves half an image under a name that is served.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, open, readdir, rename, rm, stat, utimes, writeFile, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';

/** A variant to store. */
export interface CachedImage {
  data: Buffer;
  /** Its media type, e.g. `image/webp`. */
  type: string;
}

/** A cached variant, opened for reading: it stays readable even if a trim removes its name. */
export interface OpenedImage {
  handle: FileHandle;
  /** In bytes. */
  size: number;
  /** Its media type, e.g. `image/webp`. */
  type: string;
}

const EXTENSIONS: Record<string, string> = { 'image/webp': 'webp', 'image/avif': 'avif', 'image/jpeg': 'jpg', 'image/png': 'png' };
const ENTRY = /^[0-9a-f]{64}\.(webp|avif|jpg|png)$/;
const KEY = /^[0-9a-f]{64}$/;
/** A temporary file older than this was left by a crash (a live write takes milliseconds), in ms. */
const STALE_TEMPORARY_MS = 60_000;

/** A folder of variants, keyed by a 64-character hex digest. */
export class ImageCache {
  #opened: Promise<void> | undefined;
  /** The trim under way, and whether another write asked for one since it began. */
  #trimming: Promise<void> | undefined;
  #again = false;

  /**
   * @param dir the folder (created on first use; may be shared by several instances)
   * @param maxBytes the bound on the sum of the sizes of the folder's variants
   * @throws RangeError when `maxBytes` is not a whole number ≥ 0
   */
  constructor(
    readonly dir: string,
    readonly maxBytes: number,
  ) {
    if (!Number.isSafeInteger(maxBytes) || maxBytes < 0) throw new RangeError(`maxBytes must be a whole number ≥ 0, got ${maxBytes}`);
  }

  /** Creates the folder once and trims what earlier runs left. */
  #open(): Promise<void> {
    this.#opened ??= mkdir(this.dir, { recursive: true }).then(() => this.#trim());
    return this.#opened;
  }

  /**
   * Removes least recently used variants until the folder's variants fit the bound, and
   * temporary files a crash left. Runs one at a time; a write during a trim runs one more after.
   */
  #trim(): Promise<void> {
    if (this.#trimming) {
      this.#again = true;
      return this.#trimming;
    }
    this.#trimming = (async () => {
      do {
        this.#again = false;
        await this.#trimOnce();
      } while (this.#again);
    })().finally(() => (this.#trimming = undefined));
    return this.#trimming;
  }

  async #trimOnce(): Promise<void> {
    const now = Date.now();
    const names = await readdir(this.dir);
    const found = await Promise.all(
      names.map(async (name) => {
        const file = join(this.dir, name);
        const info = await stat(file).catch(() => undefined); // removed by another instance meanwhile
        if (!info?.isFile()) return undefined;
        if (name.endsWith('.tmp')) {
          if (now - info.mtimeMs > STALE_TEMPORARY_MS) await rm(file, { force: true });
          return undefined;
        }
        return ENTRY.test(name) ? { file, size: info.size, used: info.mtimeMs } : undefined;
      }),
    );
    const entries = found.filter((e) => e !== undefined).sort((a, b) => a.used - b.used);
    let bytes = entries.reduce((sum, e) => sum + e.size, 0);
    const removals: Promise<void>[] = [];
    for (const entry of entries) {
      if (bytes <= this.maxBytes) break;
      bytes -= entry.size;
      removals.push(rm(entry.file, { force: true }));
    }
    await Promise.all(removals);
  }

  /**
   * Opens a cached variant and marks it as just used.
   * @param key a 64-character hex digest
   * @param types the media types it may have, tried in order (the format of a variant in the
   *   source's own format is known only once the source is read)
   * @returns the open variant (the caller closes its handle, e.g. by reading it to the end), or
   *   undefined when not cached
   * @throws Error when the folder cannot be read (the caller still answers)
   */
  async open(key: string, types: readonly string[]): Promise<OpenedImage | undefined> {
    await this.#open();
    for (const type of types) {
      const file = join(this.dir, `${key}.${EXTENSIONS[type]}`);
      let handle: FileHandle;
      try {
        handle = await open(file, 'r');
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue;
        throw error;
      }
      try {
        const { size } = await handle.stat();
        // The file's time is its recency, for every instance's trim; losing it costs nothing.
        const now = new Date();
        utimes(file, now, now).catch(() => {});
        return { handle, size, type };
      } catch (error) {
        await handle.close();
        throw error;
      }
    }
    return undefined;
  }

  /**
   * Stores a variant, then trims the folder to its bound. A variant larger than the whole
   * bound is not stored.
   * @param key a 64-character hex digest
   * @returns whether the variant was stored
   * @throws TypeError for a key that is not a digest or a type without an extension
   * @throws Error when the folder cannot be written (the caller still answers)
   */
  async set(key: string, image: CachedImage): Promise<boolean> {
    const ext = EXTENSIONS[image.type];
    if (!ext || !KEY.test(key)) throw new TypeError(`Cannot cache ${image.type} under "${key}"`);
    await this.#open();
    if (image.data.length > this.maxBytes) return false;
    const temporary = join(this.dir, `${key}.${process.pid}-${randomBytes(4).toString('hex')}.tmp`);
    await writeFile(temporary, image.data);
    await rename(temporary, join(this.dir, `${key}.${ext}`));
    await this.#trim();
    return true;
  }
}
