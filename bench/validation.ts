// What validating a photo costs next to decoding it: sharp decoding 12 large photos (about
// 12 MP each) versus `analyzePhoto` + `judgePhoto` on the same 12 (face detection, mesh,
// descriptor, sharpness; warm, after `warmUp`), in one run.
//
//   npm run bench validation
//   BENCH_ROUNDS=3   times each set of 12 is measured (the fastest round counts)
//   BENCH_PHOTOS=12  the first N of the 12 photos (npm test's smoke run takes 3)
//
// The photos: quality/large-12mp.jpg (4000x3000) and 11 of person A's photos upscaled in
// memory to 3000x4000 (JPEG q90), so every one is about 12 MP. Every photo must pass
// judgePhoto; the script exits non-zero otherwise.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { photos as photoRules } from '../src/common/product/photos.ts';
import { analyzePhoto, detectionMaxSide, warmUp } from '../src/server/images/faces.ts';
import { judgePhoto } from '../src/server/images/photo-checks.ts';
import { machine, writeResults } from './support/results.ts';

const rounds = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 3));
const repo = fileURLToPath(new URL('../', import.meta.url));

interface Row {
  name: string;
  /** The fastest round's total for the 12 photos. */
  totalMs: number;
  perPhotoMs: number;
  /** The slowest single photo in that round. */
  maxMs: number;
  ratioToDecode: number;
}

async function inputs(): Promise<{ name: string; bytes: Buffer; megapixels: number }[]> {
  const large = readFileSync(path.join(repo, 'tests/fixtures/photos/quality/large-12mp.jpg'));
  const sources = [
    ...Array.from({ length: 8 }, (_, i) => `assets/seed/person-a/a-0${i + 1}.jpg`),
    ...['a-09', 'a-10', 'a-11'].map((n) => `tests/fixtures/photos/person-a/${n}.jpg`),
  ].slice(0, Math.max(1, Number(process.env.BENCH_PHOTOS ?? 12)) - 1);
  const list = [{ name: 'large-12mp.jpg', bytes: large }];
  for (const source of sources) {
    const bytes = await sharp(readFileSync(path.join(repo, source)))
      .rotate()
      .resize(3000, 4000, { fit: 'fill' })
      .jpeg({ quality: 90 })
      .toBuffer();
    list.push({ name: `${path.basename(source)} at 3000x4000`, bytes });
  }
  return Promise.all(
    list.map(async (input) => {
      const { width, height } = await sharp(input.bytes).metadata();
      return { ...input, megapixels: (width * height) / 1e6 };
    }),
  );
}

async function measure(
  name: string,
  photos: { bytes: Buffer }[],
  work: (bytes: Buffer) => Promise<unknown>,
): Promise<Omit<Row, 'ratioToDecode'>> {
  let best: { total: number; max: number } | null = null;
  for (let round = 0; round < rounds; round++) {
    let total = 0;
    let max = 0;
    for (const photo of photos) {
      const started = performance.now();
      await work(photo.bytes);
      const ms = performance.now() - started;
      total += ms;
      max = Math.max(max, ms);
    }
    if (!best || total < best.total) best = { total, max };
  }
  const row = {
    name,
    totalMs: Math.round(best!.total),
    perPhotoMs: Math.round(best!.total / photos.length),
    maxMs: Math.round(best!.max),
  };
  console.log(`  ${name}: ${row.totalMs} ms for ${photos.length}, ${row.perPhotoMs} ms each`);
  return row;
}

const photos = await inputs();
console.log(
  `validation: ${photos.length} photos of ${Math.min(...photos.map((p) => p.megapixels)).toFixed(1)}-${Math.max(...photos.map((p) => p.megapixels)).toFixed(1)} MP, best of ${rounds} rounds`,
);

const warmUpStarted = performance.now();
await warmUp();
const warmUpMs = Math.round(performance.now() - warmUpStarted);

const failures: string[] = [];
const decode = await measure('sharp decode only (full size, upright, raw RGB)', photos, (bytes) =>
  sharp(bytes, { limitInputPixels: photoRules.maxPixels }).rotate().removeAlpha().raw().toBuffer(),
);
const validate = await measure('analyzePhoto + judgePhoto (warm)', photos, async (bytes) => {
  const verdict = judgePhoto(await analyzePhoto(bytes));
  if (verdict !== null) failures.push(verdict);
});
const rows: Row[] = [decode, validate].map((row) => ({
  ...row,
  ratioToDecode: row.totalMs / decode.totalMs,
}));

const meta = {
  ...machine(),
  photos: `${photos.length}: large-12mp.jpg (4000x3000) and ${photos.length - 1} of person A's photos upscaled to 3000x4000, JPEG q90`,
  method: `each photo one after another, best of ${rounds} rounds; detection at ${detectionMaxSide} px longest side, @vladmandic/human on the tfjs WASM backend`,
  'first load of the face models (warmUp)': `${warmUpMs} ms`,
};

const markdown = [
  '# Photo validation benchmark',
  '',
  'Written by `npm run bench validation` (`bench/validation.ts`); see `bench/README.md`.',
  '',
  ...Object.entries(meta).map(([key, value]) => `- ${key}: ${value}`),
  '',
  `| step | ${photos.length} photos | per photo | slowest photo | vs decode only |`,
  '|---|---:|---:|---:|---:|',
  ...rows.map(
    (row) =>
      `| ${row.name} | ${row.totalMs} ms | ${row.perPhotoMs} ms | ${row.maxMs} ms | ${row.ratioToDecode.toFixed(2)}× |`,
  ),
  '',
].join('\n');

console.log(`\n${markdown}`);
writeResults('validation', markdown, { ...meta, rows });

if (failures.length > 0) {
  console.error(`some photos did not pass judgePhoto: ${failures.join(', ')}`);
  process.exit(1);
}
