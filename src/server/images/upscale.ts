import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Logger } from 'pino';
import sharp from 'sharp';
import type { RgbImage } from './rgb-image.ts';
import { closeImageThreads, forgetImageTasks, runOnImageThread } from './image-threads.ts';
import type { PixelRect } from './upscale-tile.ts';

/**
 * Super-resolution to HD: the studio engine composes a picture at about 512x640 and delivers it
 * 4x larger (2048x2560) through an ESRGAN model (@upscalerjs, tfjs layers models run on the WASM
 * backend), never a plain resize in disguise.
 *
 * The picture is cut into tiles that the process's image threads (`image-threads.ts`: one per
 * core, started on first use, each with its own tfjs runtime and the model loaded once) upscale
 * in parallel, so the event loop of the calling process only cuts and pastes. tfjs's own WASM multi-threading would
 * be the simpler way to use both cores, but it is switched off under Node (its threads are
 * started from `blob:` URLs, which Node's workers refuse: tfjs issue #3830).
 */

/** Output pixels per input pixel along each side. */
export const upscaleFactor = 4;

export type UpscaleModelName = 'esrgan-slim' | 'esrgan-medium';

interface UpscaleModel {
  packageName: string;
  /**
   * How far, in input pixels, the model looks around a pixel: a tile run with this much of the
   * picture around it gives the output the whole picture would, so tiles keep only their own
   * part and join without seams or blending. Measured by comparing tiles with the whole
   * picture: the difference reaches 0 at 10 px (slim) and 14 px (medium).
   */
  contextPx: number;
}

const models: Record<UpscaleModelName, UpscaleModel> = {
  'esrgan-slim': { packageName: '@upscalerjs/esrgan-slim', contextPx: 10 },
  'esrgan-medium': { packageName: '@upscalerjs/esrgan-medium', contextPx: 14 },
};

/**
 * Slim: it looks as sharp as medium (0.1 dB apart against a real photo) for about a third of
 * the CPU time (see bench/results/upscale.md).
 */
export const defaultUpscaleModel: UpscaleModelName = 'esrgan-slim';

/**
 * Input pixels along a tile's side, before its context. With the model's tail folded (see
 * upscale-tile.ts) a tile costs about the same per pixel from 148 to 276 px a side with its
 * context; the size sets the share of context (18% extra pixels at 192 px, 26% at 128 px) and
 * each thread's WASM heap, which grows to fit its largest tile and never shrinks: 100-116 MB a
 * thread at 192 px, 65 MB at 128 px (96 px: 42-50 MB, but 45% extra pixels). At 128 px, 512x640
 * is 20 tiles of 148x148 with context, and a run of HD studio pictures peaked at 732 MB instead
 * of 917 MB at 192 px (bench/studio-picture.ts) for about 6% more CPU time.
 */
export const tileSidePx = 128;

export interface UpscaleOptions {
  model?: UpscaleModelName;
  /**
   * Without it, a failure of the model rejects. With it, the failure is logged as a warning and
   * the picture is resized with lanczos3 instead, which the result's `method` says.
   */
  fallback?: { log: Pick<Logger, 'warn'> };
}

export interface UpscaledImage extends RgbImage {
  method: UpscaleModelName | 'lanczos3';
}

/** `image` 4x larger on each side, through the super-resolution model. */
export async function upscaleToHd(
  image: RgbImage,
  options: UpscaleOptions = {},
): Promise<UpscaledImage> {
  checkImage(image);
  const modelName = options.model ?? defaultUpscaleModel;
  try {
    return { ...(await upscaleWithModel(image, modelName)), method: modelName };
  } catch (error) {
    if (!options.fallback) throw error;
    options.fallback.log.warn(
      { err: error, model: modelName, width: image.width, height: image.height },
      'super-resolution failed: delivering a lanczos3 resize instead',
    );
    return { ...(await resizeLanczos(image)), method: 'lanczos3' };
  }
}

/** Stops every image thread (a later upscale starts them again). */
export async function closeUpscaler(): Promise<void> {
  await closeImageThreads('the upscaler was closed');
}

function checkImage(image: RgbImage): void {
  const { width, height, data } = image;
  if (!Number.isInteger(width) || !Number.isInteger(height) || width < 1 || height < 1)
    throw new RangeError(`an image must have a positive whole size, not ${width}x${height}`);
  if (data.length !== width * height * 3)
    throw new RangeError(
      `a ${width}x${height} RGB image has ${width * height * 3} bytes, not ${data.length}`,
    );
}

/** `image` 4x larger on each side with lanczos3 (the fallback, and the studio's faces). */
export async function resizeLanczos(image: RgbImage): Promise<RgbImage> {
  const width = image.width * upscaleFactor;
  const height = image.height * upscaleFactor;
  const data = await sharp(image.data, {
    raw: { width: image.width, height: image.height, channels: 3 },
  })
    .resize(width, height, { kernel: 'lanczos3', fit: 'fill' })
    .raw()
    .toBuffer();
  return { data, width, height };
}

interface Tile {
  /** The tile's own pixels in the input. */
  own: PixelRect;
  /** Its own pixels with the model's context around them, inside the input. */
  withContext: PixelRect;
}

/** Tiles of nearly equal size covering the picture, each with its context. */
export function tileLayout(width: number, height: number, contextPx: number): Tile[] {
  const columns = Math.ceil(width / tileSidePx);
  const rows = Math.ceil(height / tileSidePx);
  const tiles: Tile[] = [];
  for (let row = 0; row < rows; row++) {
    const top = Math.round((row * height) / rows);
    const bottom = Math.round(((row + 1) * height) / rows);
    for (let column = 0; column < columns; column++) {
      const left = Math.round((column * width) / columns);
      const right = Math.round(((column + 1) * width) / columns);
      const contextLeft = Math.max(0, left - contextPx);
      const contextTop = Math.max(0, top - contextPx);
      tiles.push({
        own: { left, top, width: right - left, height: bottom - top },
        withContext: {
          left: contextLeft,
          top: contextTop,
          width: Math.min(width, right + contextPx) - contextLeft,
          height: Math.min(height, bottom + contextPx) - contextTop,
        },
      });
    }
  }
  return tiles;
}

async function upscaleWithModel(image: RgbImage, modelName: UpscaleModelName): Promise<RgbImage> {
  const modelJsonPath = modelJsonPathOf(modelName);
  const width = image.width * upscaleFactor;
  const height = image.height * upscaleFactor;
  const data = Buffer.alloc(width * height * 3);
  const picture = Symbol('picture');
  const tiles = tileLayout(image.width, image.height, models[modelName].contextPx);
  try {
    await Promise.all(
      tiles.map(async ({ own, withContext }) => {
        const keep = {
          left: own.left - withContext.left,
          top: own.top - withContext.top,
          width: own.width,
          height: own.height,
        };
        const pixels = cutOut(image, withContext);
        const upscaled = await runOnImageThread(
          'upscaleTile',
          [modelJsonPath, { pixels, width: withContext.width, height: withContext.height, keep }],
          { transfer: [pixels.buffer], group: picture },
        ).catch((error: Error) => {
          throw new Error(`super-resolution failed: ${error.message}`, { cause: error });
        });
        const rowBytes = own.width * upscaleFactor * 3;
        for (let y = 0; y < own.height * upscaleFactor; y++) {
          const target = ((own.top * upscaleFactor + y) * width + own.left * upscaleFactor) * 3;
          data.set(upscaled.subarray(y * rowBytes, (y + 1) * rowBytes), target);
        }
      }),
    );
  } catch (error) {
    forgetImageTasks(picture);
    throw error;
  }
  return { data, width, height };
}

/** A copy of `rect` of the image in its own buffer (which moves to the thread, not copied). */
function cutOut(image: RgbImage, rect: PixelRect): Uint8Array<ArrayBuffer> {
  const pixels = new Uint8Array(rect.width * rect.height * 3);
  const rowBytes = rect.width * 3;
  for (let y = 0; y < rect.height; y++) {
    const source = ((rect.top + y) * image.width + rect.left) * 3;
    pixels.set(image.data.subarray(source, source + rowBytes), y * rowBytes);
  }
  return pixels;
}

/** The model's `model.json` inside its npm package. */
function modelJsonPathOf(modelName: UpscaleModelName): string {
  return path.join(
    packageRoot(models[modelName].packageName),
    `models/x${upscaleFactor}/model.json`,
  );
}

const require = createRequire(import.meta.url);

/** The folder of an installed package whose `exports` hide its package.json. */
function packageRoot(name: string): string {
  let folder = path.dirname(require.resolve(name));
  while (path.dirname(folder) !== folder) {
    const manifest = path.join(folder, 'package.json');
    if (
      existsSync(manifest) &&
      (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string }).name === name
    )
      return folder;
    folder = path.dirname(folder);
  }
  throw new Error(`no package.json of ${name} above ${require.resolve(name)}`);
}
