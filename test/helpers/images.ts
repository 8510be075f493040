/**
 * Image fixtures for the `/_image` tests, made with sharp into a temporary public folder:
 * real images, and sources that must be refused (SVG, disguised files, a decompression bomb,
 * a truncated file, a file over the size limit); and apps serving them for a suite.
 */
import { mkdir, mkdtemp, open, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before } from 'node:test';
import sharp from 'sharp';
import { MAX_SOURCE_BYTES } from '../../protocol/image-config.js';
import { readManifest } from '../../src/assets/manifest.js';
import { sharpOptimizer, type Optimizer } from '../../src/images/optimizer.js';
import { useApp, type SuiteTestApp, type TestAppOptions } from './app.js';

/** A fixture of {@link imageFixtures}: 1000 × 500, public, so not content-hashed. */
export const PHOTO = '/assets/images/photo.png';

/** The site's hero in the build (dist/manifest.json): 3840 × 1920, content-hashed. */
export const hero = () => readManifest('dist/manifest.json').images.hero!;

/** The real sharp optimizer, counting the variants it makes. */
export function countingOptimizer(): Optimizer & { transforms: number } {
  const real = sharpOptimizer();
  const spy = {
    transforms: 0,
    inspect: (data: Buffer) => real.inspect(data),
    transform: (data: Buffer, t: Parameters<Optimizer['transform']>[1]) => {
      spy.transforms += 1;
      return real.transform(data, t);
    },
  };
  return spy;
}

/**
 * GETs a path of an app with fetch and reads the whole body.
 * @param app the app, e.g. a suite's
 * @param path e.g. `imageUrl(PHOTO, 640)`
 * @returns the response (body consumed) and its bytes
 */
export async function getImage(app: { url: string }, path: string, headers: Record<string, string> = {}): Promise<{ res: Response; body: Buffer }> {
  const res = await fetch(app.url + path, { headers });
  return { res, body: Buffer.from(await res.arrayBuffer()) };
}

/** A public folder with `images/` fixtures. */
interface ImageFixtures {
  /** Pass as `publicDir` to the app. */
  publicDir: string;
  remove(): Promise<void>;
}

/** A JPEG whose start-of-frame header is rewritten to declare `width` × `height` (its data stays 16 × 16). */
async function bomb(width: number, height: number): Promise<Buffer> {
  const data = await sharp({ create: { width: 16, height: 16, channels: 3, background: '#808080' } }).jpeg({ progressive: false }).toBuffer();
  const sof = data.indexOf(Buffer.from([0xff, 0xc0]));
  if (sof < 0) throw new Error('no SOF0 marker in the fixture JPEG');
  data.writeUInt16BE(height, sof + 5);
  data.writeUInt16BE(width, sof + 7);
  return data;
}

/**
 * Writes the fixtures. Under `images/`:
 * - `photo.png` 1000 × 500 and `photo.jpg` 1000 × 500 (served, revalidated: not content-hashed)
 * - `drawing.svg`, `drawing-svg.png` (SVG content, PNG name), `animation.gif`, `notes.jpg` (text)
 * - `bomb.jpg` (a 16 × 16 JPEG declaring 60 000 × 60 000 pixels)
 * - `truncated.jpg` (a JPEG cut in half), `garbage.png` (a PNG signature and noise)
 * - `huge.jpg` (a sparse file one byte over the size limit)
 */
async function imageFixtures(): Promise<ImageFixtures> {
  const publicDir = await mkdtemp(join(tmpdir(), 'eiland-public-'));
  const dir = join(publicDir, 'images');
  await mkdir(dir);
  const gradient = Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="1000" height="500"><defs><linearGradient id="g"><stop offset="0" stop-color="#0a58ca"/><stop offset="1" stop-color="#f4d9a8"/></linearGradient></defs><rect width="1000" height="500" fill="url(#g)"/><circle cx="700" cy="250" r="160" fill="#1f7a3d"/></svg>`,
  );
  const photo = sharp(gradient);
  const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100"><script>alert(1)</script><rect width="100" height="100"/></svg>');
  const jpeg = await photo.clone().jpeg().toBuffer();
  await Promise.all([
    photo.clone().png().toFile(join(dir, 'photo.png')),
    writeFile(join(dir, 'photo.jpg'), jpeg),
    writeFile(join(dir, 'drawing.svg'), svg),
    writeFile(join(dir, 'drawing-svg.png'), svg),
    sharp({ create: { width: 32, height: 32, channels: 3, background: '#ff0000' } }).gif().toFile(join(dir, 'animation.gif')),
    writeFile(join(dir, 'notes.jpg'), 'Dit is geen afbeelding.\n'),
    bomb(60_000, 60_000).then((data) => writeFile(join(dir, 'bomb.jpg'), data)),
    writeFile(join(dir, 'truncated.jpg'), jpeg.subarray(0, Math.floor(jpeg.length / 2))),
    writeFile(join(dir, 'garbage.png'), Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(64, 0x5a)])),
  ]);
  // Sparse: one byte over the limit without writing megabytes.
  const huge = await open(join(dir, 'huge.jpg'), 'w');
  await huge.write(jpeg.subarray(0, 64), 0, 64, 0);
  await huge.truncate(MAX_SOURCE_BYTES + 1);
  await huge.close();
  return { publicDir, remove: () => rm(publicDir, { recursive: true, force: true }) };
}

/** Apps serving the image fixtures from one cache folder, for a suite (see {@link useImageApps}). */
interface ImageSuite {
  apps: SuiteTestApp[];
  /** The apps' IMAGE_CACHE_DIR. */
  readonly cacheDir: string;
  /** The fixtures' public folder (the apps' `publicDir`). */
  readonly publicDir: string;
}

/**
 * Registers hooks that write the {@link imageFixtures} and make an empty image cache folder, start
 * one app per entry of `instances` on them (useApp), and afterwards close the apps and remove both.
 * @param instances createApp options of each app besides `publicDir` (e.g. its `imageOptimizer`)
 * @param env extra environment of every app besides IMAGE_CACHE_DIR (e.g. IMAGE_CACHE_MAX_BYTES)
 * @param prepare writes into the cache folder before the apps open it (e.g. a crashed write)
 * @throws Error when an app, `cacheDir` or `publicDir` is read outside the suite's tests
 */
export function useImageApps(instances: Array<Omit<TestAppOptions, 'publicDir'>>, env: NodeJS.ProcessEnv = {}, prepare?: (cacheDir: string) => Promise<void>): ImageSuite {
  let made: { fixtures: ImageFixtures; cacheDir: string } | undefined;
  const current = () => {
    if (!made) throw new Error('useImageApps(): read outside the tests of the suite that called it');
    return made;
  };
  before(async () => {
    const fixtures = await imageFixtures();
    const cacheDir = await mkdtemp(join(tmpdir(), 'eiland-image-cache-'));
    made = { fixtures, cacheDir };
    await prepare?.(cacheDir);
  });
  const apps = instances.map((options) =>
    useApp(
      () => ({ ...options, publicDir: current().fixtures.publicDir }),
      () => ({ ...env, IMAGE_CACHE_DIR: current().cacheDir }),
    ),
  );
  after(async () => {
    const gone = made;
    made = undefined;
    await gone?.fixtures.remove();
    if (gone) await rm(gone.cacheDir, { recursive: true, force: true });
  });
  return {
    apps,
    get cacheDir() {
      return current().cacheDir;
    },
    get publicDir() {
      return current().fixtures.publicDir;
    },
  };
}

/**
 * {@link useImageApps} for one app.
 * @returns the app, its cache folder and the fixtures' public folder, valid inside the suite's tests
 */
export function useImageApp(options: Omit<TestAppOptions, 'publicDir'> = {}, env: NodeJS.ProcessEnv = {}, prepare?: (cacheDir: string) => Promise<void>): Omit<ImageSuite, 'apps'> & { app: SuiteTestApp } {
  const suite = useImageApps([options], env, prepare);
  return {
    app: suite.apps[0]!,
    get cacheDir() {
      return suite.cacheDir;
    },
    get publicDir() {
      return suite.publicDir;
    },
  };
}
