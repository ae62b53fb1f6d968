import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as tf from '@tensorflow/tfjs-core';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { defaultNsfwThreshold } from '../config.ts';
import { classifyNsfw, isFlagged, nsfwClasses, nsfwScores, warmUp } from './nsfw.ts';

const repo = fileURLToPath(new URL('../../../', import.meta.url));

/** Every photo in the repository (the seed's and the tests'), except the deliberately bad files. */
const fixturePhotos = ['assets/seed', 'tests/fixtures/photos'].flatMap((root) =>
  readdirSync(path.join(repo, root), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && /\.(jpe?g|png|webp)$/i.test(entry.name))
    .map((entry) => path.relative(repo, path.join(entry.parentPath, entry.name)))
    .filter((file) => !file.includes('bad-files')),
);

beforeAll(async () => {
  await warmUp();
}, 60_000);

describe('the NSFW classifier', () => {
  it('flags none of the fixture photos at the default threshold', async () => {
    expect(fixturePhotos.length).toBeGreaterThan(30);
    const flagged: string[] = [];
    for (const file of fixturePhotos) {
      const verdict = await classifyNsfw(readFileSync(path.join(repo, file)), defaultNsfwThreshold);
      if (verdict.flagged) flagged.push(`${file} ${JSON.stringify(verdict.scores)}`);
    }
    expect(flagged).toEqual([]);
  }, 120_000);

  it('answers five probabilities, the same for a photo and its pixels, without leaking tensors', async () => {
    const bytes = readFileSync(path.join(repo, 'assets/seed/person-a/a-01.jpg'));
    const { data, info } = await sharp(bytes).rotate().raw().toBuffer({ resolveWithObject: true });
    const fromBytes = await nsfwScores(bytes);
    const tensorsBefore = tf.memory().numTensors;
    const fromPixels = await nsfwScores({ data, width: info.width, height: info.height });
    expect(tf.memory().numTensors).toBe(tensorsBefore);
    expect(Object.keys(fromBytes).sort()).toEqual([...nsfwClasses].sort());
    expect(Object.values(fromBytes).reduce((sum, p) => sum + p, 0)).toBeCloseTo(1, 3);
    for (const name of nsfwClasses) expect(fromPixels[name]).toBeCloseTo(fromBytes[name], 3);
    expect(fromBytes.Neutral).toBeGreaterThan(0.9);
  });

  it('flags an ordinary photo once the operator makes the threshold strict enough', async () => {
    const bytes = readFileSync(path.join(repo, 'assets/seed/person-a/a-01.jpg'));
    expect((await classifyNsfw(bytes, defaultNsfwThreshold)).flagged).toBe(false);
    expect((await classifyNsfw(bytes, 0.00001)).flagged).toBe(true);
  });

  it('counts Porn and Hentai together, and Sexy alone only halfway from the threshold to certainty', () => {
    const scores = { Drawing: 0, Hentai: 0, Neutral: 0, Porn: 0, Sexy: 0 };
    expect(isFlagged({ ...scores, Porn: 0.4, Hentai: 0.3, Neutral: 0.3 }, 0.7)).toBe(true);
    expect(isFlagged({ ...scores, Porn: 0.4, Hentai: 0.2, Neutral: 0.4 }, 0.7)).toBe(false);
    expect(isFlagged({ ...scores, Sexy: 0.8, Neutral: 0.2 }, 0.7)).toBe(false);
    expect(isFlagged({ ...scores, Sexy: 0.85, Neutral: 0.15 }, 0.7)).toBe(true);
    expect(isFlagged({ ...scores, Drawing: 1 }, 0.01)).toBe(false);
  });
});
