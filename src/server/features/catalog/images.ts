import { createHash } from 'node:crypto';
import sharp, { type Metadata } from 'sharp';
import type { CatalogImage } from '../../../common/api/catalog.ts';
import { adminMessages } from '../../../common/messages/admin.ts';
import { catalog } from '../../../common/product/catalog.ts';
import { isSafeKey, storageKey, type Storage } from '../../adapters/storage/storage.ts';
import type { StoredImage, StoredImageVariant } from '../../db/schema/catalog.ts';
import { AppError } from '../../http/app-error.ts';

/**
 * Catalog pictures: checked from their bytes, decoded with a pixel limit, re-encoded to WebP at
 * the sizes pages use, and stored under content-hashed keys below `catalog/`. Those keys never
 * change content, so they are served publicly with a year-long immutable cache (decision 007).
 */

/** Public URL prefix; `catalog/<rest>` in storage is `/api/catalog/images/<rest>` on the web. */
export const catalogImagesPath = '/api/catalog/images';
const rootFolder = 'catalog';
/** Part of every content hash: changing how variants are made must change their keys too. */
const pipelineVersion = 'webp-q80-v1';
const webp = { quality: 80, effort: 4 } as const;

interface RawImage {
  data: Buffer;
  width: number;
  height: number;
  channels: 3 | 4;
}

export interface ImageSource {
  bytes: Buffer;
  /** The same bytes already encoded (by a content import, from its picture cache). */
  encoded?: EncodedImage;
}

/** A picture decoded and encoded at every width it is served at, not yet stored. */
export interface EncodedImage {
  id: string;
  variants: { width: number; height: number; data: Buffer }[];
}

const acceptedFormats = new Set(['jpeg', 'png', 'webp']);

/**
 * Checks an upload before anything is stored: a JPEG, PNG or WebP by its bytes (an SVG, HEIC
 * or anything else is refused whatever its name says), within the pixel limit, not too small.
 */
export async function inspectUpload(bytes: Buffer): Promise<{ width: number; height: number }> {
  let metadata: Metadata;
  try {
    // Reads the header only; the pixel limit is checked below with a message of its own.
    metadata = await sharp(bytes, { limitInputPixels: false }).metadata();
  } catch {
    throw new AppError('UNSUPPORTED_MEDIA_TYPE', adminMessages.uploadUnsupportedType);
  }
  if (!metadata.format || !acceptedFormats.has(metadata.format)) {
    throw new AppError('UNSUPPORTED_MEDIA_TYPE', adminMessages.uploadUnsupportedType);
  }
  const { width, height } = orientedSize(metadata);
  if (!width || !height) throw new AppError('BAD_REQUEST', adminMessages.uploadUnreadable);
  // The header alone tells the size: a decompression bomb is refused before any decoding.
  if (width * height > catalog.maxPixels) {
    throw new AppError('BAD_REQUEST', adminMessages.uploadTooManyPixels);
  }
  if (Math.min(width, height) < catalog.minImageSidePx) {
    throw new AppError('BAD_REQUEST', adminMessages.uploadTooSmall(catalog.minImageSidePx));
  }
  return { width, height };
}

function orientedSize(metadata: Metadata): { width?: number; height?: number } {
  const sideways = (metadata.orientation ?? 1) >= 5;
  return sideways
    ? { width: metadata.height, height: metadata.width }
    : { width: metadata.width, height: metadata.height };
}

/** The widths made for a picture this wide: the standard ones below it, and its own size capped at the largest. */
export function variantWidths(width: number): number[] {
  const largest = Math.min(width, Math.max(...catalog.imageWidths));
  return [...new Set([...catalog.imageWidths.filter((w) => w < largest), largest])].sort(
    (a, b) => a - b,
  );
}

/**
 * Decodes once (EXIF-rotated, shrunk to the largest width), then encodes each WebP variant.
 * Unreadable data fails here, before anything is stored.
 */
export async function encodeImage(bytes: Buffer): Promise<EncodedImage> {
  const decoded = await decode(bytes);
  const variants: EncodedImage['variants'] = [];
  for (const width of variantWidths(decoded.width)) {
    const { data, info } = await sharp(decoded.data, {
      raw: { width: decoded.width, height: decoded.height, channels: decoded.channels },
    })
      .resize({ width, withoutEnlargement: true })
      .webp(webp)
      .toBuffer({ resolveWithObject: true });
    variants.push({ width: info.width, height: info.height, data });
  }
  return { id: hashOf(decoded), variants };
}

/**
 * What makes a picture's encoding: its bytes and how variants are made. Two sources with the same
 * key encode to the same files, so an encoding can be kept under it (the picture cache).
 */
export function encodingKey(bytes: Buffer): string {
  return createHash('sha256')
    .update(`${pipelineVersion}-e${webp.effort}-w${catalog.imageWidths.join(',')}-`)
    .update(bytes)
    .digest('hex');
}

/**
 * Stores a picture's variants under `catalog/<folder...>/<id>-<width>.webp` (encoding it first
 * unless the source comes encoded). If any write fails, the ones made are removed.
 */
export async function storeImage(
  storage: Storage,
  folder: string[],
  source: ImageSource,
): Promise<StoredImage> {
  const { id, variants: encoded } = source.encoded ?? (await encodeImage(source.bytes));
  const written: string[] = [];
  try {
    const variants: StoredImageVariant[] = [];
    for (const { width, height, data } of encoded) {
      const key = storageKey(rootFolder, ...folder, `${id}-${width}.webp`);
      await storage.put(key, data, 'image/webp');
      written.push(key);
      variants.push({ key, width, height, bytes: data.length });
    }
    const largest = variants[variants.length - 1]!;
    return { id, width: largest.width, height: largest.height, variants };
  } catch (error) {
    await Promise.all(written.map((key) => storage.delete(key).catch(() => {})));
    throw error;
  }
}

function hashOf(decoded: RawImage): string {
  return createHash('sha256')
    .update(`${pipelineVersion}-e${webp.effort}-${decoded.width}x${decoded.height}`)
    .update(decoded.data)
    .digest('hex')
    .slice(0, 20);
}

async function decode(bytes: Buffer): Promise<RawImage> {
  const maxWidth = Math.max(...catalog.imageWidths);
  const input = sharp(bytes, { limitInputPixels: catalog.maxPixels, failOn: 'error' });
  try {
    const { data, info } = await input
      .rotate()
      .resize({ width: maxWidth, withoutEnlargement: true })
      .toColourspace('srgb')
      .raw()
      .toBuffer({ resolveWithObject: true });
    return {
      data,
      width: info.width,
      height: info.height,
      channels: info.channels === 4 ? 4 : 3,
    };
  } catch {
    // Truncated or corrupt data that passed the header check fails here, before any write.
    throw new AppError('BAD_REQUEST', adminMessages.uploadUnreadable);
  }
}

export async function deleteImage(storage: Storage, image: StoredImage | null | undefined) {
  if (!image) return;
  await Promise.all(image.variants.map((variant) => storage.delete(variant.key)));
}

/** The storage key behind a public image path, or undefined when it is not a catalog picture. */
export function keyForImagePath(rest: string): string | undefined {
  const key = `${rootFolder}/${rest}`;
  return rest.endsWith('.webp') && isSafeKey(key) ? key : undefined;
}

export function imageUrl(key: string): string {
  return `${catalogImagesPath}/${key.slice(rootFolder.length + 1)}`;
}

/** The picture as the pages use it: src/width/height of the 640 px variant, and a srcset. */
export function toCatalogImage(image: StoredImage, alt: string): CatalogImage {
  const variants = image.variants.map((variant) => ({
    src: imageUrl(variant.key),
    width: variant.width,
    height: variant.height,
  }));
  const fitting = variants.filter((variant) => variant.width <= catalog.defaultImageWidth);
  const main = fitting[fitting.length - 1] ?? variants[0]!;
  return {
    id: image.id,
    src: main.src,
    width: main.width,
    height: main.height,
    srcset: variants.map((variant) => `${variant.src} ${variant.width}w`).join(', '),
    alt,
    variants,
  };
}
