import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tryonMessages } from '../../../common/messages/tryon.ts';
import { analyzePhoto, type FaceBox } from '../../images/faces.ts';
import { primaryFace } from '../../images/photo-checks.ts';
import { LocalStorage } from '../storage/local-storage.ts';
import { storageKey } from '../storage/storage.ts';
import { detectPose, torsoFrame } from '../../images/pose.ts';
import { createLocalTryOnEngine } from './local-tryon.ts';
import { previewBadgeBox } from './preview-badge.ts';
import {
  makesPreviews,
  type TryOnEngine,
  type TryOnRequest,
  type TryOnState,
} from './tryon-engine.ts';

// Real photos (CC0 / public domain): see assets/seed/LICENSES.md and tests/fixtures/photos/README.md.
const seed = new URL('../../../../assets/seed/', import.meta.url);
const fixtures = new URL('../../../../tests/fixtures/photos/', import.meta.url);
const selfie = readFileSync(new URL('person-a/a-03.jpg', seed)); // a close-up: shoulders at the bottom
const portrait = readFileSync(new URL('real-portraits/hopper.jpg', seed)); // head and shoulders
const cat = readFileSync(new URL('not-a-face/cat.jpg', seed));
const coffee = readFileSync(new URL('not-a-face/coffee.jpg', fixtures)); // no garment, no backdrop

/** The garment's colour, and its print on the flat-lay photo (a 600×600 picture). */
const green = [0x2e, 0x9e, 0x4f] as const;
const print = { cx: 300, cy: 200, r: 26 };

/**
 * A flat-lay product photo: a green T-shirt with a white print on the chest, on an off-white
 * backdrop with a little noise, as a JPEG (so its edges and backdrop are not perfectly flat).
 */
function tShirtSvg(background: string): Buffer {
  return Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="600" height="600">` +
      (background === 'none' ? '' : `<rect width="600" height="600" fill="${background}"/>`) +
      `<path d="M215 90 Q300 150 385 90 L520 150 L480 260 L420 235 L420 520 L180 520 L180 235 ` +
      `L120 260 L80 150 Z" fill="rgb(${green.join(',')})"/>` +
      `<circle cx="${print.cx}" cy="${print.cy}" r="${print.r}" fill="#fff"/></svg>`,
  );
}

async function flatLayJpeg(): Promise<Buffer> {
  const { data, info } = await sharp(tShirtSvg('#f6f5f1'))
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  // Sensor-like noise, deterministic.
  let seedValue = 7;
  for (let i = 0; i < data.length; i++) {
    seedValue = (seedValue * 1103515245 + 12345) & 0x7fffffff;
    data[i] = Math.max(0, Math.min(255, data[i]! + ((seedValue >> 16) % 7) - 3));
  }
  return sharp(data, { raw: { width: info.width, height: info.height, channels: 3 } })
    .jpeg({ quality: 85 })
    .toBuffer();
}

let root: string;
let storage: LocalStorage;
let engine: TryOnEngine;

async function put(name: string, bytes: Buffer): Promise<string> {
  const key = storageKey('users', 'user-1', 'tryon', name);
  await storage.put(key, bytes, name.endsWith('.png') ? 'image/png' : 'image/jpeg');
  return key;
}

let count = 0;
async function request(personKey: string, garmentKey: string): Promise<TryOnRequest> {
  count += 1;
  return {
    tryOnId: `try_${count}`,
    userId: 'user-1',
    personKey,
    personUrl: await storage.signedUrl(personKey),
    garmentKey,
    garmentUrl: await storage.signedUrl(garmentKey),
    options: { category: 'auto', mode: 'balanced', garmentPhotoType: 'auto' },
    webhookUrl: null,
  };
}

interface Raw {
  data: Buffer;
  width: number;
  height: number;
}

async function raw(bytes: Buffer): Promise<Raw> {
  const { data, info } = await sharp(bytes)
    .rotate()
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

type Box = { left: number; top: number; right: number; bottom: number };

/**
 * The share of a region's pixels for which `test(rgb, x, y)` holds; pixels it answers null for
 * do not count.
 */
function share(
  image: Raw,
  box: Box,
  test: (rgb: number[], x: number, y: number) => boolean | null,
): number {
  let hits = 0;
  let total = 0;
  for (let y = box.top; y < box.bottom; y++)
    for (let x = box.left; x < box.right; x++) {
      const i = (y * image.width + x) * 3;
      const verdict = test([image.data[i]!, image.data[i + 1]!, image.data[i + 2]!], x, y);
      if (verdict === null) continue;
      total++;
      if (verdict) hits++;
    }
  return hits / total;
}

const pixel = (image: Raw, x: number, y: number) => {
  const i = (y * image.width + x) * 3;
  return [image.data[i]!, image.data[i + 1]!, image.data[i + 2]!];
};

const nearGreen = (rgb: number[]) => Math.hypot(...rgb.map((v, c) => v - green[c]!)) < 60;

/** Mean absolute difference of two pictures over a region. */
function meanDifference(a: Raw, b: Raw, box: Box): number {
  let sum = 0;
  let n = 0;
  for (let y = box.top; y < box.bottom; y++)
    for (let x = box.left; x < box.right; x++)
      for (let c = 0; c < 3; c++) {
        const i = (y * a.width + x) * 3 + c;
        sum += Math.abs(a.data[i]! - b.data[i]!);
        n++;
      }
  return sum / n;
}

const boxOf = (face: FaceBox): Box => ({
  left: Math.floor(face.x),
  top: Math.floor(face.y),
  right: Math.ceil(face.x + face.width),
  bottom: Math.floor(face.y + face.height),
});

async function succeeded(state: TryOnState | undefined): Promise<Raw & { bytes: Buffer }> {
  expect(state?.status).toBe('succeeded');
  if (state?.status !== 'succeeded') throw new Error('no image');
  expect(state.image.contentType).toBe('image/jpeg');
  return { ...(await raw(state.image.bytes)), bytes: state.image.bytes };
}

let garmentKey: string;
const keys: Record<string, string> = {};

beforeAll(async () => {
  root = mkdtempSync(path.join(os.tmpdir(), 'likeness-local-tryon-'));
  storage = new LocalStorage({
    root,
    secret: 'local-tryon-test-secret',
    defaultTtlSeconds: 3600,
    publicPath: '/api/files',
  });
  engine = createLocalTryOnEngine({ storage });
  garmentKey = await put('garment.jpg', await flatLayJpeg());
  keys.portrait = await put('portrait.jpg', portrait);
  keys.selfie = await put('selfie.jpg', selfie);
  keys.cat = await put('cat.jpg', cat);
  // The face models load once per process: not part of any test's time.
  await analyzePhoto(portrait);
});
afterAll(() => {
  if (root) rmSync(root, { recursive: true, force: true });
});

/** The person's shoulders as the engine sees them (the same pose model). */
async function shouldersOf(image: Raw) {
  const frame = torsoFrame(await detectPose(image));
  if (!frame) throw new Error('no shoulders');
  const { left, right } = frame.shoulders;
  return { left, right, width: Math.hypot(right.x - left.x, right.y - left.y) };
}

describe('local try-on', () => {
  it('is an in-process preview engine with nothing to poll and no webhooks', async () => {
    expect(engine.name).toBe('local');
    expect(engine.inProcess).toBe(true);
    expect(makesPreviews(engine.name)).toBe(true);
    expect(await engine.status('anything')).toEqual({
      status: 'failed',
      error: tryonMessages.errors.generic,
    });
    expect(engine.webhookUrl('https://app.example/api/tryon/webhook', 'try_1')).toBe(
      'https://app.example/api/tryon/webhook',
    );
    expect(
      engine.readWebhook({ headers: {}, query: { tryon: 'try_1' }, rawBody: Buffer.from('{}') }),
    ).toBeNull();
  });

  it.each(['selfie', 'portrait'] as const)(
    'dresses a %s: the garment on the shoulders, the torso changed, the face untouched',
    async (which) => {
      const bytes = which === 'selfie' ? selfie : portrait;
      const started = performance.now();
      const result = await engine.start(await request(keys[which]!, garmentKey));
      const elapsed = performance.now() - started;
      expect(result.reference).toBeNull();
      const output = await succeeded(result.state);
      const input = await raw(bytes);
      expect([output.width, output.height]).toEqual([input.width, input.height]);

      const face = primaryFace(await analyzePhoto(bytes))!.box;
      expect(meanDifference(output, input, boxOf(face))).toBeLessThan(2.5);

      // The garment's top edge, straight above each shoulder joint, lies near the shoulder line:
      // the first green pixel going down from the chin.
      const shoulders = await shouldersOf(input);
      const tolerance = shoulders.width * 0.2;
      for (const shoulder of [shoulders.left, shoulders.right]) {
        const x = Math.round(Math.max(0, Math.min(input.width - 1, shoulder.x)));
        let top = Math.ceil(face.y + face.height);
        while (top < output.height && !nearGreen(pixel(output, x, top))) top++;
        expect(Math.abs(top - shoulder.y)).toBeLessThan(tolerance);
      }

      // Below the shoulder line between the shoulders: the garment (it had none there).
      const lineY = Math.round(Math.max(shoulders.left.y, shoulders.right.y));
      const chest = {
        left: Math.round(shoulders.left.x + shoulders.width * 0.2),
        right: Math.round(shoulders.right.x - shoulders.width * 0.2),
        top: Math.min(output.height - 2, lineY + Math.round(shoulders.width * 0.05)),
        bottom: output.height,
      };
      const badge = previewBadgeBox(output.width, output.height);
      const notBadge = (x: number, y: number) => !(x >= badge.left && y >= badge.top);
      expect(share(input, chest, nearGreen)).toBeLessThan(0.01);
      expect(
        share(output, chest, (rgb, x, y) => (notBadge(x, y) ? nearGreen(rgb) : null)),
      ).toBeGreaterThan(0.6);
      expect(meanDifference(output, input, chest)).toBeGreaterThan(20);
      // Well above the shoulders and beside the head, the backdrop is unchanged.
      const besideHead = {
        left: 0,
        right: Math.floor(face.x / 2),
        top: 0,
        bottom: Math.floor(face.y),
      };
      if (besideHead.right > 0 && besideHead.bottom > 0)
        expect(meanDifference(output, input, besideHead)).toBeLessThan(1.5);
      console.info(
        `local try-on of a ${input.width}x${input.height} ${which}: ${Math.round(elapsed)} ms`,
      );
    },
  );

  it('keeps the cut-out of a garment photo that has transparency', async () => {
    const cutOut = await put('cut-out.png', await sharp(tShirtSvg('none')).png().toBuffer());
    const output = await succeeded((await engine.start(await request(keys.selfie!, cutOut))).state);
    const input = await raw(selfie);
    const shoulders = await shouldersOf(input);
    const chest = {
      left: Math.round(shoulders.left.x + shoulders.width * 0.25),
      right: Math.round(shoulders.right.x - shoulders.width * 0.25),
      top: Math.round(Math.max(shoulders.left.y, shoulders.right.y) + shoulders.width * 0.05),
      bottom: output.height - previewBadgeBox(output.width, output.height).height * 2,
    };
    expect(share(output, chest, nearGreen)).toBeGreaterThan(0.6);
  });

  it('fails with a readable message when the person photo has no face', async () => {
    const result = await engine.start(await request(keys.cat!, garmentKey));
    expect(result).toEqual({
      reference: null,
      state: { status: 'failed', error: tryonMessages.errors.noFace },
    });
  });

  it('fails when the garment photo shows no garment: no plain backdrop and nobody wearing it', async () => {
    const busy = await put('busy.jpg', coffee);
    expect((await engine.start(await request(keys.selfie!, busy))).state).toEqual({
      status: 'failed',
      error: tryonMessages.errors.noGarment,
    });
  });

  it('fails when an image is missing or unreadable', async () => {
    const missing = storageKey('users', 'user-1', 'tryon', 'missing.jpg');
    const text = await put('text.jpg', Buffer.from('not an image at all'));
    for (const [person, garment] of [
      [missing, garmentKey],
      [keys.selfie!, missing],
      [keys.selfie!, text],
      [text, garmentKey],
    ] as const) {
      expect((await engine.start(await request(person, garment))).state).toEqual({
        status: 'failed',
        error: tryonMessages.errors.imageLoad,
      });
    }
  });
});
