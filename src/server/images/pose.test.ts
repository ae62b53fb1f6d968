import { readFileSync } from 'node:fs';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { detectPose, torsoFrame } from './pose.ts';

// Real photos (CC0): see assets/seed/LICENSES.md.
const seed = new URL('../../../assets/seed/', import.meta.url);

async function rgb(name: string) {
  const { data, info } = await sharp(readFileSync(new URL(name, seed)))
    .rotate()
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

describe('pose', () => {
  it.each(['person-a/a-01.jpg', 'person-a/a-03.jpg'])(
    'finds both shoulders of a close selfie (%s), and estimates the hips below the picture',
    async (name) => {
      const image = await rgb(name);
      const pose = await detectPose(image);
      const frame = torsoFrame(pose);
      expect(frame).not.toBeNull();
      const { left, right } = frame!.shoulders;
      // Either side of the nose, in the picture's lower part, about level, well apart.
      expect(left.x).toBeLessThan(pose.nose.x);
      expect(right.x).toBeGreaterThan(pose.nose.x);
      for (const shoulder of [left, right]) {
        expect(shoulder.y).toBeGreaterThan(image.height * 0.7);
        expect(shoulder.y).toBeLessThan(image.height);
      }
      expect(Math.abs(left.y - right.y)).toBeLessThan(image.height * 0.1);
      expect(right.x - left.x).toBeGreaterThan(image.width * 0.45);
      expect(frame!.hipsEstimated).toBe(true);
      expect(frame!.hips.left.y).toBeGreaterThan(image.height);
    },
  );

  it('answers no torso when the shoulders are not found', async () => {
    const image = await rgb('not-a-face/cat.jpg');
    const pose = await detectPose(image);
    const weak = { ...pose.leftShoulder, score: 0.05 };
    expect(torsoFrame({ ...pose, leftShoulder: weak, rightShoulder: weak })).toBeNull();
  });
});
