import { mkdir, mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyBaseLogger } from 'fastify';
import { z } from 'zod';
import { type EncodedImage, encodeImage, encodingKey } from './images.ts';

/**
 * Content packs' pictures encoded once per installation. Importing a pack encodes each picture
 * at three widths (about 30 s of CPU for the default pack); a fresh data folder, another
 * environment on the same host or each test server would pay that again at its first start.
 * Entries are keyed by the picture's bytes and the encoding pipeline (`encodingKey`), so they
 * never go stale. Each is written to a temporary folder and renamed into place, so a reader sees
 * a whole entry or none; a cache that cannot be read or written costs only the encoding.
 */
export const defaultPictureCacheDir = fileURLToPath(
  new URL('../../../../node_modules/.cache/likeness/catalog-pictures', import.meta.url),
);

const entrySchema = z.object({
  id: z.string().regex(/^[0-9a-f]{20}$/),
  variants: z
    .array(z.object({ width: z.number().int().positive(), height: z.number().int().positive() }))
    .min(1),
});

export type EncodePicture = (bytes: Buffer) => Promise<EncodedImage>;

/** `encodeImage`, answered from `dir` when the same bytes were encoded before. */
export function cachedEncoder(dir: string, logger?: FastifyBaseLogger): EncodePicture {
  return async (bytes) => {
    const entry = path.join(dir, encodingKey(bytes));
    let damaged = false;
    const cached = await readEntry(entry).catch((error: NodeJS.ErrnoException) => {
      damaged = error.code !== 'ENOENT';
    });
    if (cached) return cached;
    const encoded = await encodeImage(bytes);
    await (damaged ? rm(entry, { recursive: true, force: true }) : Promise.resolve())
      .then(() => writeEntry(dir, entry, encoded))
      .catch((error: unknown) => logger?.debug({ err: error, dir }, 'picture cache not written'));
    return encoded;
  };
}

const variantFile = (entry: string, width: number) => path.join(entry, `${width}.webp`);

async function readEntry(entry: string): Promise<EncodedImage> {
  const { id, variants } = entrySchema.parse(
    JSON.parse(await readFile(path.join(entry, 'image.json'), 'utf8')),
  );
  return {
    id,
    variants: await Promise.all(
      variants.map(async (variant) => ({
        ...variant,
        data: await readFile(variantFile(entry, variant.width)),
      })),
    ),
  };
}

async function writeEntry(dir: string, entry: string, { id, variants }: EncodedImage) {
  await mkdir(dir, { recursive: true });
  const temporary = await mkdtemp(path.join(dir, '.writing-'));
  try {
    for (const variant of variants)
      await writeFile(variantFile(temporary, variant.width), variant.data);
    const sizes = variants.map(({ width, height }) => ({ width, height }));
    await writeFile(path.join(temporary, 'image.json'), JSON.stringify({ id, variants: sizes }));
    // Another process may have put the same entry in place meanwhile: theirs stays.
    await rename(temporary, entry);
  } finally {
    await rm(temporary, { recursive: true, force: true });
  }
}
