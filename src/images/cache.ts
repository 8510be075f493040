/**
 * The disk cache of image variants (issue 10): one file per variant under a folder in `data/`,
 * bounded in bytes, least recently used out first. Each file is written to a temporary name
 * and renamed, so a crash never leaves half an image under a name that is served.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** A cached variant. */
export interface CachedImage {
  data: Buffer;
  /** Its media type, e.g. `image/webp`. */
  type: string;
}

const EXTENSIONS: Record<string, string> = { 'image/webp': 'webp', 'image/avif': 'avif', 'image/jpeg': 'jpg', 'image/png': 'png' };
const TYPES = Object.fromEntries(Object.entries(EXTENSIONS).map(([type, ext]) => [ext, type]));
const ENTRY = /^([0-9a-f]{64})\.([a-z]+)$/;

/** A folder of variants, keyed by a 64-character hex digest. */
export class ImageCache {
  /** Key → file and size; iteration order is recency, least recently used first. */
  readonly #index = new Map<string, { file: string; size: number; type: string }>();
  #bytes = 0;
  #opened: Promise<void> | undefined;

  /**
   * @param dir the folder (created on first use)
   * @param maxBytes the bound on the sum of the files' sizes
   */
  constructor(
    readonly dir: string,
    readonly maxBytes: number,
  ) {}

  /** Bytes the cache holds now. */
  get bytes(): number {
    return this.#bytes;
  }

  /** Reads the folder once: what earlier runs left is kept (oldest first out), temporary files removed. */
  #open(): Promise<void> {
    this.#opened ??= (async () => {
      await mkdir(this.dir, { recursive: true });
      const found = await Promise.all(
        (await readdir(this.dir)).map(async (name) => {
          const file = join(this.dir, name);
          const match = ENTRY.exec(name);
          const type = match ? TYPES[match[2]!] : undefined;
          if (!match || !type) {
            if (name.endsWith('.tmp')) await rm(file, { force: true }); // a write a crash interrupted
            return undefined;
          }
          const info = await stat(file);
          return { key: match[1]!, file, size: info.size, type, used: info.mtimeMs };
        }),
      );
      for (const entry of found.filter((e) => e !== undefined).sort((a, b) => a.used - b.used)) {
        this.#index.set(entry.key, { file: entry.file, size: entry.size, type: entry.type });
        this.#bytes += entry.size;
      }
      await this.#evict();
    })();
    return this.#opened;
  }

  async #evict(): Promise<void> {
    const removals: Promise<void>[] = [];
    for (const [key, entry] of this.#index) {
      if (this.#bytes <= this.maxBytes) break;
      this.#index.delete(key);
      this.#bytes -= entry.size;
      removals.push(rm(entry.file, { force: true }));
    }
    await Promise.all(removals);
  }

  /**
   * A cached variant, marked as just used.
   * @param key a 64-character hex digest
   * @returns the variant, or undefined when not cached (or removed by another process)
   */
  async get(key: string): Promise<CachedImage | undefined> {
    await this.#open();
    const entry = this.#index.get(key);
    if (!entry) return undefined;
    let data: Buffer;
    try {
      data = await readFile(entry.file);
    } catch {
      this.#index.delete(key);
      this.#bytes -= entry.size;
      return undefined;
    }
    this.#index.delete(key);
    this.#index.set(key, entry);
    // The file's time keeps its recency for the next start; losing it costs nothing.
    const now = new Date();
    utimes(entry.file, now, now).catch(() => {});
    return { data, type: entry.type };
  }

  /**
   * Stores a variant, then removes the least recently used ones until the bound holds.
   * A variant larger than the whole bound is not stored.
   * @param key a 64-character hex digest
   * @throws Error when the folder cannot be written (the caller still answers)
   */
  async set(key: string, image: CachedImage): Promise<void> {
    const ext = EXTENSIONS[image.type];
    if (!ext || !/^[0-9a-f]{64}$/.test(key)) throw new TypeError(`Cannot cache ${image.type} under "${key}"`);
    await this.#open();
    if (image.data.length > this.maxBytes) return;
    const file = join(this.dir, `${key}.${ext}`);
    const temporary = join(this.dir, `${key}.${process.pid}-${randomBytes(4).toString('hex')}.tmp`);
    await writeFile(temporary, image.data);
    await rename(temporary, file);
    const previous = this.#index.get(key);
    if (previous) {
      this.#index.delete(key);
      this.#bytes -= previous.size;
    }
    this.#index.set(key, { file, size: image.data.length, type: image.type });
    this.#bytes += image.data.length;
    await this.#evict();
  }
}
