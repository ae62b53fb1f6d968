import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '../../../common/messages.ts';
import { analyzePhoto, type FaceBox } from '../../images/faces.ts';
import { primaryFace } from '../../images/photo-checks.ts';
import { LocalStorage } from '../storage/local-storage.ts';
import { storageKey } from '../storage/storage.ts';
import { createLocalTryOnEngine, torsoRegion } from './local-tryon.ts';
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
const portrait = readFileSync(new URL('real-portraits/hopper.jpg', seed)); // head and shoulders
const selfie = readFileSync(new URL('person-a/a-01.jpg', seed)); // a close-up: little torso
const cat = readFileSync(new URL('not-a-face/cat.jpg', seed));
const astronaut = readFileSync(new URL('person-b/b-01.jpg', fixtures)); // a busy scene

/** The garment's colour, and the flat-lay photo's layout (a 600×600 picture). */
const green = [0x2e, 0x9e, 0x4f] as const;
const shirt = { left: 80, top: 90, right: 520, bottom: 520 };
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
const nearWhite = (rgb: number[]) => rgb.every((v) => v > 225);

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

describe('local try-on', () => {
  it('is an in-process preview engine with nothing to poll and no webhooks', async () => {
    expect(engine.name).toBe('local');
    expect(engine.inProcess).toBe(true);
    expect(makesPreviews(engine.name)).toBe(true);
    expect(await engine.status('anything')).toEqual({
      status: 'failed',
      error: messages.tryon.errors.generic,
    });
    expect(engine.webhookUrl('https://app.example/api/tryon/webhook', 'try_1')).toBe(
      'https://app.example/api/tryon/webhook',
    );
    expect(
      engine.readWebhook({ headers: {}, query: { tryon: 'try_1' }, rawBody: Buffer.from('{}') }),
    ).toBeNull();
  });

  it('dresses a portrait: the garment over the torso, its backdrop left out, the face untouched', async () => {
    const started = performance.now();
    const result = await engine.start(await request(keys.portrait!, garmentKey));
    const elapsed = performance.now() - started;
    expect(result.reference).toBeNull();
    const output = await succeeded(result.state);
    const input = await raw(portrait);
    expect([output.width, output.height]).toEqual([input.width, input.height]);

    const face = primaryFace(await analyzePhoto(portrait))!.box;
    expect(meanDifference(output, input, boxOf(face))).toBeLessThan(2.5);

    // The torso region below the face: green now (it had none), and no new white.
    const torso = torsoRegion(face, input.width, input.height)!;
    expect(torso.bottom - torso.top).toBeGreaterThan(200);
    expect(share(input, torso, nearGreen)).toBeLessThan(0.01);
    expect(share(output, torso, nearGreen)).toBeGreaterThan(0.6);
    // Where the print on the chest lands, and the badge: left out of the colour counts.
    const width = torso.right - torso.left;
    const scale = width / (shirt.right - shirt.left);
    const printAt = {
      x: Math.round(torso.left + (print.cx - shirt.left) * scale),
      y: Math.round(torso.top + (print.cy - shirt.top) * scale),
      r: print.r * scale,
    };
    const badge = previewBadgeBox(output.width, output.height);
    const elsewhere = (x: number, y: number) =>
      Math.hypot(x - printAt.x, y - printAt.y) > printAt.r * 1.3 &&
      !(x >= badge.left && y >= badge.top);

    // The shirt's middle is all garment.
    const middle = {
      left: torso.left + Math.round(width * 0.35),
      right: torso.right - Math.round(width * 0.35),
      top: torso.top + Math.round((torso.bottom - torso.top) * 0.3),
      bottom: torso.bottom,
    };
    expect(
      share(output, middle, (rgb, x, y) => (elsewhere(x, y) ? nearGreen(rgb) : null)),
    ).toBeGreaterThan(0.97);

    // The print came along (a white patch inside the shirt, kept by the flood fill); elsewhere
    // in the torso region nothing turned white: no backdrop rectangle.
    expect(nearWhite(pixel(output, printAt.x, printAt.y))).toBe(true);
    const newWhite = share(output, torso, (rgb, x, y) =>
      elsewhere(x, y) ? nearWhite(rgb) && !nearWhite(pixel(input, x, y)) : null,
    );
    expect(newWhite).toBeLessThan(0.005);
    // Beside the shirt's body, under its sleeves, the person shows through unchanged.
    const besideBody = {
      left: torso.left,
      right: torso.left + Math.round((180 - shirt.left) * scale * 0.6),
      top: Math.round(torso.top + (300 - shirt.top) * scale),
      bottom: output.height,
    };
    if (besideBody.bottom > besideBody.top)
      expect(meanDifference(output, input, besideBody)).toBeLessThan(6);

    // A corner badge says it is a preview.
    const badgeRegion = {
      left: badge.left,
      top: badge.top,
      right: badge.left + badge.width,
      bottom: badge.top + badge.height,
    };
    expect(meanDifference(output, input, badgeRegion)).toBeGreaterThan(20);
    console.info(
      `local try-on of a ${input.width}x${input.height} portrait: ${Math.round(elapsed)} ms`,
    );
  });

  it('dresses a close-up selfie, the torso clamped to the picture', async () => {
    const result = await engine.start(await request(keys.selfie!, garmentKey));
    const output = await succeeded(result.state);
    const input = await raw(selfie);
    expect([output.width, output.height]).toEqual([input.width, input.height]);
    const face = primaryFace(await analyzePhoto(selfie))!.box;
    expect(meanDifference(output, input, boxOf(face))).toBeLessThan(2.5);
    const torso = torsoRegion(face, input.width, input.height)!;
    expect(torso).toMatchObject({ left: 0, right: input.width, bottom: input.height });
    expect(share(output, torso, nearGreen)).toBeGreaterThan(0.5);
  });

  it('keeps the cut-out of a garment photo that has transparency', async () => {
    const cutOut = await put('cut-out.png', await sharp(tShirtSvg('none')).png().toBuffer());
    const output = await succeeded(
      (await engine.start(await request(keys.portrait!, cutOut))).state,
    );
    const face = primaryFace(await analyzePhoto(portrait))!.box;
    const torso = torsoRegion(face, output.width, output.height)!;
    expect(share(output, torso, nearGreen)).toBeGreaterThan(0.6);
  });

  it('fails with a readable message when the person photo has no face', async () => {
    const result = await engine.start(await request(keys.cat!, garmentKey));
    expect(result).toEqual({
      reference: null,
      state: { status: 'failed', error: messages.tryon.errors.noFace },
    });
  });

  it('fails when the garment photo has no plain background to cut it out of', async () => {
    const busy = await put('busy.jpg', astronaut);
    expect((await engine.start(await request(keys.portrait!, busy))).state).toEqual({
      status: 'failed',
      error: messages.tryon.errors.noGarment,
    });
  });

  it('fails when an image is missing or unreadable', async () => {
    const missing = storageKey('users', 'user-1', 'tryon', 'missing.jpg');
    const text = await put('text.jpg', Buffer.from('not an image at all'));
    for (const [person, garment] of [
      [missing, garmentKey],
      [keys.portrait!, missing],
      [keys.portrait!, text],
      [text, garmentKey],
    ] as const) {
      expect((await engine.start(await request(person, garment))).state).toEqual({
        status: 'failed',
        error: messages.tryon.errors.imageLoad,
      });
    }
  });
});
