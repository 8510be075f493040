/**
 * Image fixtures for the `/_image` tests, made with sharp into a temporary public folder:
 * real images, and sources that must be refused (SVG, disguised files, a decompression bomb,
 * a truncated file, a file over the size limit).
 */
import { mkdir, mkdtemp, open, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { MAX_SOURCE_BYTES } from '../../protocol/image-config.js';

/** A public folder with `images/` fixtures. */
export interface ImageFixtures {
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
export async function imageFixtures(): Promise<ImageFixtures> {
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
