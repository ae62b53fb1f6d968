import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { FastifyRequest } from 'fastify';
import { readFile } from 'node:fs/promises';
import decodeHeic from 'heic-decode';
import sharp, { type Metadata, type SharpOptions } from 'sharp';
import { httpMessages } from '../../common/messages/http.ts';
import { uploadMessages, validationMessages } from '../../common/messages/studio.ts';
import { photos } from '../../common/product/photos.ts';
import { AppError } from '../http/app-error.ts';
import { classifyNsfw } from './analysis.ts';

/**
 * The way in for a user's pictures (training photos, try-on person and garment): the multipart body is streamed to a temporary file (never held
 * in memory whole), its type is read from its bytes, its size from its header before any
 * decoding (no decompression bombs), then it is decoded once, turned upright (EXIF orientation)
 * and re-encoded without metadata (no GPS, no camera serial).
 */

export interface ReceivedFile {
  path: string;
  fileName: string;
  bytes: number;
  /** Removes the temporary file; safe to call twice. */
  discard(): Promise<void>;
}

export interface NormalizedPhoto {
  /** Upright JPEG without metadata; the short side at most `maxStoredShortSide`. */
  jpeg: Buffer;
  /** A small WebP preview for lists. */
  thumbnail: Buffer;
  /** Of the stored (upright, maybe shrunk) photo: face boxes are measured on it. */
  width: number;
  height: number;
}

/**
 * Photos are kept at this short side at most: plenty for training, bounded storage. At 1500 a
 * 12 MP photo (3000 px short side) shrinks by 2, which lets the JPEG decoder decode it at half
 * size directly: a quarter of the pixels in memory (bench/results/memory.md).
 */
const maxStoredShortSide = 1500;
// libvips' operation cache would keep recently decoded uploads in memory; they are never reused.
sharp.cache(false);
const thumbnailSide = 320;

/**
 * Decoding is what costs memory during an upload (bench/results/memory.md), so a process decodes
 * at most this many photos at once, whatever the number of uploads arriving: the others wait
 * their turn (a fraction of a second each) with their bytes on disk.
 */
const decodeSlots = slots(2);

function slots(size: number) {
  let free = size;
  const waiting: (() => void)[] = [];
  const release = () => {
    const next = waiting.shift();
    if (next) next();
    else free += 1;
  };
  return {
    async acquire(): Promise<() => void> {
      if (free > 0) free -= 1;
      else await new Promise<void>((resolve) => waiting.push(resolve));
      return release;
    },
  };
}
const acceptedFormats = new Set(['jpeg', 'png', 'webp']);

/** Streams the one file of a multipart request (field `file`) to a temporary file. */
export async function receiveSingleFile(request: FastifyRequest): Promise<ReceivedFile> {
  const { files } = await receiveUpload(request, { files: ['file'], fields: [] });
  const file = files.get('file');
  if (!file) throw new AppError('BAD_REQUEST', uploadMessages.fileMissing);
  return file;
}

export interface ReceivedUpload {
  files: Map<string, ReceivedFile>;
  fields: Map<string, string>;
  /** Removes every temporary file. */
  discard(): Promise<void>;
}

/**
 * Streams the named file fields of a multipart request to temporary files (at most one each)
 * and reads the named text fields; anything else is refused. Empty files count as missing.
 * On any failure every temporary file is removed before the error is thrown.
 */
export async function receiveUpload(
  request: FastifyRequest,
  expected: { files: readonly string[]; fields: readonly string[] },
): Promise<ReceivedUpload> {
  if (!request.isMultipart())
    throw new AppError('UNSUPPORTED_MEDIA_TYPE', uploadMessages.notMultipart);
  const files = new Map<string, ReceivedFile>();
  const fields = new Map<string, string>();
  const discard = async () => {
    await Promise.all([...files.values()].map((file) => file.discard()));
  };
  try {
    for await (const part of request.parts()) {
      if (part.type !== 'file') {
        if (!expected.fields.includes(part.fieldname) || typeof part.value !== 'string')
          throw new AppError('BAD_REQUEST', uploadMessages.oneFileOnly);
        if (part.value.includes('\u0000'))
          throw new AppError('BAD_REQUEST', httpMessages.invalidText);
        fields.set(part.fieldname, part.value);
        continue;
      }
      if (!expected.files.includes(part.fieldname) || files.has(part.fieldname)) {
        part.file.resume();
        throw new AppError('BAD_REQUEST', uploadMessages.oneFileOnly);
      }
      const target = path.join(os.tmpdir(), `likeness-upload-${randomUUID()}`);
      const file: ReceivedFile = {
        path: target,
        fileName: displayName(part.filename),
        bytes: 0,
        discard: () => rm(target, { force: true }),
      };
      files.set(part.fieldname, file);
      await pipeline(part.file, createWriteStream(target));
      file.bytes = (await stat(target)).size;
      if (file.bytes === 0) {
        await file.discard();
        files.delete(part.fieldname);
      }
    }
  } catch (error) {
    await discard();
    if (error instanceof AppError) throw error;
    const code = (error as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE')
      throw new AppError('PAYLOAD_TOO_LARGE', validationMessages.reasons.fileTooLarge);
    if (code === 'FST_FILES_LIMIT' || code === 'FST_PARTS_LIMIT' || code === 'FST_FIELDS_LIMIT')
      throw new AppError('BAD_REQUEST', uploadMessages.oneFileOnly);
    throw new AppError('BAD_REQUEST', uploadMessages.malformed);
  }
  return { files, fields, discard };
}

/** A file name fit to show back to its owner: no folders, no control characters, bounded. */
function displayName(name: string | undefined): string {
  const base = (name ?? '').split(/[\\/]/).pop() ?? '';
  // eslint-disable-next-line no-control-regex
  const clean = base.replace(/[\u0000-\u001f\u007f\u202a-\u202e\u2066-\u2069]/g, '').trim();
  return clean.slice(0, 120) || 'photo';
}

/**
 * Checks and normalises a received photo, then refuses it when the NSFW classifier flags it at
 * `nsfwThreshold` (the operator's NSFW_THRESHOLD); throws a 4xx AppError naming what is wrong.
 */
export async function normalizePhoto(
  file: string,
  options: {
    /** The colour transparent parts become (white unless the caller knows better). */
    background?: string;
    nsfwThreshold: number;
  },
): Promise<NormalizedPhoto> {
  const photo = await decodeUpright(file, options);
  // Judged on the stored JPEG: what would be kept is what is checked.
  if ((await classifyNsfw(photo.jpeg, options.nsfwThreshold)).flagged)
    throw new AppError('BAD_REQUEST', validationMessages.reasons.explicit);
  return photo;
}

async function decodeUpright(
  file: string,
  options: { background?: string },
): Promise<NormalizedPhoto> {
  let metadata: Metadata;
  try {
    // Reads the header only: the pixel limit is checked below, before anything is decoded.
    metadata = await sharp(file, { limitInputPixels: false }).metadata();
  } catch {
    throw new AppError('UNSUPPORTED_MEDIA_TYPE', validationMessages.reasons.unsupportedType);
  }
  // HEIF holds HEVC (an iPhone's HEIC) or AV1 (AVIF); sharp decodes the second itself.
  const heic = metadata.format === 'heif' && metadata.compression === 'hevc';
  if (!heic && (!metadata.format || !acceptedFormats.has(metadata.format)))
    throw new AppError('UNSUPPORTED_MEDIA_TYPE', validationMessages.reasons.unsupportedType);
  // libheif turns a HEIC upright as it decodes, so only other formats go by the EXIF tag.
  const sideways = !heic && (metadata.orientation ?? 1) >= 5;
  const width = (sideways ? metadata.height : metadata.width) ?? 0;
  const height = (sideways ? metadata.width : metadata.height) ?? 0;
  if (!width || !height) throw new AppError('BAD_REQUEST', validationMessages.reasons.unreadable);
  if (width * height > photos.maxPixels)
    throw new AppError('BAD_REQUEST', validationMessages.reasons.dimensionsTooLarge);

  const release = await decodeSlots.acquire();
  try {
    const scale = Math.min(1, maxStoredShortSide / Math.min(width, height));
    const source = heic ? await decodeHeicFile(file) : { input: file, options: {} };
    const { data: jpeg, info } = await sharp(source.input, {
      limitInputPixels: photos.maxPixels,
      failOn: 'error',
      ...source.options,
    })
      .rotate()
      .resize({
        width: Math.round(width * scale),
        height: Math.round(height * scale),
        fit: 'fill',
      })
      .flatten({ background: options.background ?? '#ffffff' })
      .toColourspace('srgb')
      .jpeg({ quality: 90, mozjpeg: false })
      .toBuffer({ resolveWithObject: true });
    // From the stored JPEG rather than from decoded pixels kept alongside it: one image in
    // memory at a time, and the JPEG decoder shrinks it while reading.
    const thumbnail = await sharp(jpeg)
      .resize({ width: thumbnailSide, height: thumbnailSide, fit: 'cover', position: 'attention' })
      .webp({ quality: 75 })
      .toBuffer();
    return { jpeg, thumbnail, width: info.width, height: info.height };
  } catch {
    // Truncated or corrupt data that only shows when decoding.
    throw new AppError('BAD_REQUEST', validationMessages.reasons.unreadable);
  } finally {
    release();
  }
}

/** Decodes a HEIC (HEVC) photo to raw RGBA pixels for sharp. */
async function decodeHeicFile(file: string): Promise<{ input: Buffer; options: SharpOptions }> {
  const image = await decodeHeic({ buffer: await readFile(file) });
  return {
    input: Buffer.from(image.data.buffer, image.data.byteOffset, image.data.byteLength),
    options: { raw: { width: image.width, height: image.height, channels: 4 } },
  };
}
