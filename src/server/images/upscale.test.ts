import { performance } from 'node:perf_hooks';
import type { RgbImage } from './rgb-image.ts';
import { EventEmitter } from 'node:events';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';

import {
  closeUpscaler,
  tileLayout,
  upscaleFactor,
  upscaleToHd,
  type UpscaledImage,
} from './upscale.ts';

// A real photo at 1024x1280 is the truth; the model gets it at a quarter of the size.
const photo = fileURLToPath(new URL('../../../assets/seed/person-a/a-01.jpg', import.meta.url));
const highWidth = 1024;
const highHeight = 1280;
const lowWidth = highWidth / upscaleFactor;
const lowHeight = highHeight / upscaleFactor;

/** Interval of the event-loop probe that runs during the upscale. */
const probeIntervalMs = 10;
/**
 * The most of the upscale's time the event loop may spend running code. The main thread only cuts
 * and pastes tiles (a few ms each); with the model on the event loop it would be busy nearly all
 * along. A share, not a time: a loaded machine slows both alike (a bound of 500 ms on the longest
 * probe delay failed in CI at 505 ms under a load average of 8).
 */
const maxEventLoopUtilization = 0.5;

let truth: Buffer;
let low: RgbImage;
let bicubic: Buffer;
let upscaled: UpscaledImage;
let probeTicks = 0;
let eventLoopUtilization: number;

beforeAll(async () => {
  truth = await sharp(photo)
    .rotate()
    .resize(highWidth, highHeight, { fit: 'cover' })
    .removeAlpha()
    .raw()
    .toBuffer();
  low = {
    data: await rawResize(truth, highWidth, highHeight, lowWidth, lowHeight),
    width: lowWidth,
    height: lowHeight,
  };
  bicubic = await rawResize(low.data, lowWidth, lowHeight, highWidth, highHeight);

  const probe = setInterval(() => probeTicks++, probeIntervalMs);
  const before = performance.eventLoopUtilization();
  try {
    upscaled = await upscaleToHd(low);
  } finally {
    eventLoopUtilization = performance.eventLoopUtilization(before).utilization;
    clearInterval(probe);
  }
}, 180_000);

afterAll(() => closeUpscaler());

describe('upscaleToHd', () => {
  it('makes the picture 4x larger on each side with the model', () => {
    expect(upscaled.width).toBe(highWidth);
    expect(upscaled.height).toBe(highHeight);
    expect(upscaled.data.length).toBe(highWidth * highHeight * 3);
    expect(upscaled.method).toBe('esrgan-slim');
  });

  it('comes closer to the real high-resolution photo than a bicubic resize', () => {
    const modelPsnr = psnr(upscaled.data, truth);
    const bicubicPsnr = psnr(bicubic, truth);
    // Measured: 33.7 dB against 33.2 dB for bicubic.
    expect(modelPsnr).toBeGreaterThan(bicubicPsnr + 0.2);

    // Measured: Laplacian variance 24 against 3.4 for bicubic (55 for the truth): edges are
    // rebuilt, not smeared, yet not sharpened beyond the real photo.
    const modelSharpness = laplacianVariance(upscaled.data, highWidth, highHeight);
    const bicubicSharpness = laplacianVariance(bicubic, highWidth, highHeight);
    const truthSharpness = laplacianVariance(truth, highWidth, highHeight);
    expect(modelSharpness).toBeGreaterThan(3 * bicubicSharpness);
    expect(modelSharpness).toBeLessThan(truthSharpness);
  });

  it('leaves no seam where tiles meet', () => {
    const tiles = tileLayout(lowWidth, lowHeight, 0);
    const columnBorders = new Set(tiles.map((tile) => tile.own.left).filter((x) => x > 0));
    const rowBorders = new Set(tiles.map((tile) => tile.own.top).filter((y) => y > 0));
    expect(columnBorders.size + rowBorders.size).toBeGreaterThan(0);
    for (const border of columnBorders) {
      const x = border * upscaleFactor;
      expect(seamRatio((offset) => columnStep(upscaled, x + offset))).toBeLessThan(1.5);
    }
    for (const border of rowBorders) {
      const y = border * upscaleFactor;
      expect(seamRatio((offset) => rowStep(upscaled, y + offset))).toBeLessThan(1.5);
    }
  });

  it('keeps the event loop responsive while it works', () => {
    expect(probeTicks).toBeGreaterThan(10);
    expect(eventLoopUtilization).toBeLessThan(maxEventLoopUtilization);
  });

  it('refuses an image whose bytes do not match its size', async () => {
    await expect(upscaleToHd({ data: Buffer.alloc(10), width: 4, height: 4 })).rejects.toThrow(
      RangeError,
    );
  });
});

describe('when the model fails', () => {
  afterEach(() => {
    vi.doUnmock('node:worker_threads');
    vi.resetModules();
  });

  it('rejects, or with a fallback says so in the log and in the result', async () => {
    vi.resetModules();
    vi.doMock('node:worker_threads', async (importOriginal) => ({
      ...(await importOriginal<typeof import('node:worker_threads')>()),
      Worker: ThreadThatFailsToStart,
    }));
    const { upscaleToHd: upscaleWithFailingThreads } = await import('./upscale.ts');

    await expect(upscaleWithFailingThreads(low)).rejects.toThrow('a tfjs thread failed');

    const warn = vi.fn();
    const resized = await upscaleWithFailingThreads(low, { fallback: { log: { warn } } });
    expect(resized.method).toBe('lanczos3');
    expect([resized.width, resized.height]).toEqual([highWidth, highHeight]);
    expect(warn).toHaveBeenCalledOnce();
    expect(warn.mock.calls[0]![1]).toMatch(/super-resolution failed/);
  });
});

/** Stands in for `Worker`: fails as a thread whose model cannot load would. */
class ThreadThatFailsToStart extends EventEmitter {
  constructor() {
    super();
    setImmediate(() => this.emit('error', new Error('the model could not be loaded')));
  }
  ref(): void {}
  unref(): void {}
  postMessage(): void {}
  terminate(): Promise<number> {
    return Promise.resolve(1);
  }
}

async function rawResize(
  data: Buffer,
  width: number,
  height: number,
  toWidth: number,
  toHeight: number,
): Promise<Buffer> {
  return sharp(data, { raw: { width, height, channels: 3 } })
    .resize(toWidth, toHeight, { kernel: 'cubic', fit: 'fill' })
    .raw()
    .toBuffer();
}

function psnr(a: Buffer, b: Buffer): number {
  let squares = 0;
  for (let i = 0; i < a.length; i++) squares += (a[i]! - b[i]!) ** 2;
  return 10 * Math.log10((255 * 255) / (squares / a.length));
}

function laplacianVariance(rgb: Buffer, width: number, height: number): number {
  const grey = (x: number, y: number) => {
    const i = (y * width + x) * 3;
    return 0.299 * rgb[i]! + 0.587 * rgb[i + 1]! + 0.114 * rgb[i + 2]!;
  };
  let sum = 0;
  let squares = 0;
  let count = 0;
  for (let y = 1; y < height - 1; y++) {
    for (let x = 1; x < width - 1; x++) {
      const value =
        4 * grey(x, y) - grey(x - 1, y) - grey(x + 1, y) - grey(x, y - 1) - grey(x, y + 1);
      sum += value;
      squares += value * value;
      count++;
    }
  }
  return squares / count - (sum / count) ** 2;
}

/** Mean absolute difference between column x-1 and column x. */
function columnStep(image: RgbImage, x: number): number {
  let total = 0;
  for (let y = 0; y < image.height; y++)
    for (let c = 0; c < 3; c++)
      total += Math.abs(
        image.data[(y * image.width + x) * 3 + c]! - image.data[(y * image.width + x - 1) * 3 + c]!,
      );
  return total / (image.height * 3);
}

/** Mean absolute difference between row y-1 and row y. */
function rowStep(image: RgbImage, y: number): number {
  let total = 0;
  for (let x = 0; x < image.width; x++)
    for (let c = 0; c < 3; c++)
      total += Math.abs(
        image.data[(y * image.width + x) * 3 + c]! -
          image.data[((y - 1) * image.width + x) * 3 + c]!,
      );
  return total / (image.width * 3);
}

/**
 * How much larger the step across a border is than the steps beside it (1 = no seam). The model
 * builds each input pixel's 4x4 block together, so steps between blocks are larger than steps
 * inside one: the border is compared with steps between blocks only.
 */
function seamRatio(stepAt: (offset: number) => number): number {
  const beside = [-4, -3, -2, -1, 1, 2, 3, 4].map((blocks) => stepAt(blocks * upscaleFactor));
  return stepAt(0) / (beside.reduce((sum, step) => sum + step, 0) / beside.length);
}
