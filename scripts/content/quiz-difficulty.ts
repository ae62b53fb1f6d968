// `npm run content:quiz-difficulty`: can simple image statistics tell the quiz's "AI" pictures
// from its real ones? A quiz a one-line rule solves is not a quiz. For each picture of the
// default content pack's quiz: brightness, contrast, saturation, colourfulness, sharpness, edge
// density, backdrop flatness and the centre against the border. Reported: the leave-one-out
// accuracy of a logistic regression on all of them, and of the best single threshold (the
// one-line rule, its threshold chosen without the held-out picture), against always answering
// the larger group. Writes bench/results/quiz-difficulty.md.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { defaultContentDir } from '../../src/server/features/catalog/seed.ts';
import type { ContentManifest } from '../../src/server/features/catalog/content-import.ts';

const size = { width: 240, height: 300 };

const featureNames = [
  'brightness',
  'contrast',
  'saturation',
  'colourfulness',
  'sharpness',
  'edge density',
  'backdrop flatness',
  'centre vs border',
] as const;

async function features(file: string): Promise<number[]> {
  const { data } = await sharp(file)
    .resize(size.width, size.height, { fit: 'cover' })
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const { width, height } = size;
  const count = width * height;
  const luma = new Float64Array(count);
  let saturation = 0;
  const rg: number[] = [];
  const yb: number[] = [];
  for (let i = 0; i < count; i++) {
    const [r, g, b] = [data[i * 3]!, data[i * 3 + 1]!, data[i * 3 + 2]!];
    luma[i] = 0.299 * r + 0.587 * g + 0.114 * b;
    const max = Math.max(r, g, b);
    saturation += max === 0 ? 0 : (max - Math.min(r, g, b)) / max;
    rg.push(r - g);
    yb.push((r + g) / 2 - b);
  }
  const laplacian: number[] = [];
  let edges = 0;
  for (let y = 1; y < height - 1; y++)
    for (let x = 1; x < width - 1; x++) {
      const i = y * width + x;
      laplacian.push(
        4 * luma[i]! - luma[i - 1]! - luma[i + 1]! - luma[i - width]! - luma[i + width]!,
      );
      const gradient = Math.hypot(luma[i + 1]! - luma[i - 1]!, luma[i + width]! - luma[i - width]!);
      if (gradient > 40) edges++;
    }
  const band = (x0: number, x1: number, y0: number, y1: number) => {
    const values: number[] = [];
    for (let y = Math.round(y0 * height); y < Math.round(y1 * height); y++)
      for (let x = Math.round(x0 * width); x < Math.round(x1 * width); x++)
        values.push(luma[y * width + x]!);
    return values;
  };
  const top = band(0, 1, 0, 0.12);
  const border = [...band(0, 0.12, 0, 1), ...band(0.88, 1, 0, 1)];
  const centre = band(0.3, 0.7, 0.25, 0.65);
  return [
    mean([...luma]),
    deviation([...luma]),
    saturation / count,
    Math.hypot(deviation(rg), deviation(yb)) + 0.3 * Math.hypot(mean(rg), mean(yb)),
    deviation(laplacian),
    edges / laplacian.length,
    deviation(top),
    mean(centre) - mean(border),
  ];
}

function mean(values: number[]): number {
  return values.reduce((sum, v) => sum + v, 0) / values.length;
}

function deviation(values: number[]): number {
  const m = mean(values);
  return Math.sqrt(values.reduce((sum, v) => sum + (v - m) ** 2, 0) / values.length);
}

/** Logistic regression with a little L2 (few samples), by gradient descent on standardised features. */
function trainLogistic(rows: number[][], labels: number[]) {
  const columns = rows[0]!.length;
  const centre = Array.from({ length: columns }, (_, j) => mean(rows.map((r) => r[j]!)));
  const scale = Array.from({ length: columns }, (_, j) => deviation(rows.map((r) => r[j]!)) || 1);
  const standard = (row: number[]) => row.map((v, j) => (v - centre[j]!) / scale[j]!);
  const xs = rows.map(standard);
  const weights = new Array<number>(columns).fill(0);
  let bias = 0;
  const l2 = 0.05;
  for (let step = 0; step < 3000; step++) {
    const gradient = new Array<number>(columns).fill(0);
    let biasGradient = 0;
    for (const [i, x] of xs.entries()) {
      const error = sigmoid(dot(weights, x) + bias) - labels[i]!;
      for (let j = 0; j < columns; j++) gradient[j]! += error * x[j]!;
      biasGradient += error;
    }
    for (let j = 0; j < columns; j++)
      weights[j]! -= 0.1 * (gradient[j]! / xs.length + l2 * weights[j]!);
    bias -= (0.1 * biasGradient) / xs.length;
  }
  return (row: number[]) => sigmoid(dot(weights, standard(row)) + bias) >= 0.5;
}

function dot(a: number[], b: number[]): number {
  return a.reduce((sum, v, i) => sum + v * b[i]!, 0);
}

function sigmoid(z: number): number {
  return 1 / (1 + Math.exp(-z));
}

/** The best threshold on one feature (either direction) for these rows: the one-line rule. */
function trainThreshold(values: number[], labels: number[]) {
  let best = { accuracy: -1, threshold: 0, above: true };
  const sorted = [...values].sort((a, b) => a - b);
  for (let i = 0; i <= sorted.length; i++) {
    const threshold =
      i === 0
        ? sorted[0]! - 1
        : i === sorted.length
          ? sorted.at(-1)! + 1
          : (sorted[i - 1]! + sorted[i]!) / 2;
    for (const above of [true, false]) {
      const correct = values.filter(
        (v, k) => (v > threshold === above ? 1 : 0) === labels[k],
      ).length;
      if (correct / values.length > best.accuracy)
        best = { accuracy: correct / values.length, threshold, above };
    }
  }
  return best;
}

function leaveOneOut(
  rows: number[][],
  labels: number[],
  train: (r: number[][], l: number[]) => (row: number[]) => boolean,
) {
  let correct = 0;
  for (let held = 0; held < rows.length; held++) {
    const others = rows.filter((_, i) => i !== held);
    const otherLabels = labels.filter((_, i) => i !== held);
    if (train(others, otherLabels)(rows[held]!) === (labels[held] === 1)) correct++;
  }
  return correct / rows.length;
}

const manifest = JSON.parse(
  readFileSync(path.join(defaultContentDir, 'manifest.json'), 'utf8'),
) as ContentManifest;
const rows = await Promise.all(
  manifest.quizImages.map((image) => features(path.join(defaultContentDir, image.image))),
);
const labels = manifest.quizImages.map((image) => (image.isAi ? 1 : 0));
const aiCount = labels.filter(Boolean).length;
const majority = Math.max(aiCount, labels.length - aiCount) / labels.length;

const logistic = leaveOneOut(rows, labels, trainLogistic);
const perFeature = featureNames.map((name, j) => {
  const column = rows.map((r) => r[j]!);
  const inSample = trainThreshold(column, labels).accuracy;
  const looAccuracy = leaveOneOut(
    rows.map((r) => [r[j]!]),
    labels,
    (r, l) => {
      const rule = trainThreshold(
        r.map((x) => x[0]!),
        l,
      );
      return (row) => row[0]! > rule.threshold === rule.above;
    },
  );
  const ai = column.filter((_, i) => labels[i] === 1);
  const real = column.filter((_, i) => labels[i] === 0);
  return { name, inSample, looAccuracy, ai: mean(ai), real: mean(real) };
});

const percent = (v: number) => `${Math.round(v * 100)} %`;
const lines = [
  '# Quiz difficulty: can image statistics tell "AI" from real?',
  '',
  `${manifest.quizImages.length} quiz pictures of the default content pack (${aiCount} "AI", ${labels.length - aiCount} real), measured at ${size.width}x${size.height} by \`npm run content:quiz-difficulty\` on ${new Date().toISOString().slice(0, 10)}.`,
  '',
  '| classifier | leave-one-out accuracy |',
  '| --- | --- |',
  `| always the larger group (the floor) | ${percent(majority)} |`,
  `| logistic regression on all ${featureNames.length} statistics | ${percent(logistic)} |`,
  `| best one-line rule (threshold on one statistic, chosen without the held-out picture) | ${percent(Math.max(...perFeature.map((f) => f.looAccuracy)))} |`,
  '',
  '| statistic | mean of "AI" | mean of real | one-line rule, leave-one-out | same, fitted on all 16 (optimistic) |',
  '| --- | --- | --- | --- | --- |',
  ...perFeature.map(
    (f) =>
      `| ${f.name} | ${f.ai.toFixed(3)} | ${f.real.toFixed(3)} | ${percent(f.looAccuracy)} | ${percent(f.inSample)} |`,
  ),
  '',
];
const report = lines.join('\n');
console.log(report);
mkdirSync('bench/results', { recursive: true });
writeFileSync('bench/results/quiz-difficulty.md', report);
