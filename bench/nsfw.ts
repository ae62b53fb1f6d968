// False positives and time per picture of the NSFW classifier (src/server/images/nsfw.ts), for
// each model nsfwjs ships, on every ordinary picture we have: the fixture photos, the garment,
// the people of the default content and the default content pack's pictures. None of them is
// explicit, so every flag is a false positive.
//
//   npm run bench nsfw
//   BENCH_NSFW_MODELS=MobileNetV2,MobileNetV2Mid   the models to measure (default: all three)
//   BENCH_FIXTURES_DIR=../shared/fixtures           the full fixture set, when present
//   BENCH_ROUNDS=1                                  timing rounds (the fastest counts)
//   BENCH_PICTURES_PER_GROUP=2                      at most this many pictures of each folder
//                                                   (default: all; npm test's smoke run uses 2)
//
// The pictures: every JPEG, PNG and WebP under tests/fixtures/photos, assets/seed, assets/people
// and, when the folder exists, BENCH_FIXTURES_DIR (photos and garments), except bad-files, each
// once (by content); then every picture of the default content pack (assets/content/default).
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { defaultContentDir } from '../src/server/features/catalog/seed.ts';
import { defaultNsfwThreshold } from '../src/server/config.ts';
import {
  isFlagged,
  nsfwModel,
  nsfwModels,
  type NsfwModelName,
  type NsfwScores,
  nsfwScores,
  warmUp,
} from '../src/server/images/nsfw.ts';
import { machine, writeResults } from './support/results.ts';

const repo = fileURLToPath(new URL('../', import.meta.url));
const rounds = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 1));
const perGroup = Number(process.env.BENCH_PICTURES_PER_GROUP ?? Infinity);
const fixturesDir = path.resolve(repo, process.env.BENCH_FIXTURES_DIR ?? '../shared/fixtures');
const modelNames = (process.env.BENCH_NSFW_MODELS ?? Object.keys(nsfwModels).join(','))
  .split(',')
  .map((name) => name.trim())
  .filter((name): name is NsfwModelName => {
    if (name in nsfwModels) return true;
    throw new Error(`unknown model ${name}; known: ${Object.keys(nsfwModels).join(', ')}`);
  });
/** Thresholds the false positives are counted at besides the default, to show the margin. */
const otherThresholds = [0.3, 0.5, 0.9];

interface Picture {
  /** The group it is counted in (a fixture folder, or a part of the catalog). */
  group: string;
  name: string;
  image: Buffer;
}

interface Pixels {
  data: Buffer;
  width: number;
  height: number;
}

const pictureFile = /\.(jpe?g|png|webp)$/i;

function filesUnder(root: string): string[] {
  if (!existsSync(root)) return [];
  return readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && pictureFile.test(entry.name))
    .map((entry) => path.join(entry.parentPath, entry.name))
    .filter((file) => !file.split(path.sep).includes('bad-files'))
    .sort();
}

function fixturePictures(): Picture[] {
  const roots = [
    path.join(fixturesDir, 'photos'),
    path.join(fixturesDir, 'garments'),
    path.join(repo, 'tests/fixtures/photos'),
    path.join(repo, 'assets/seed'),
    path.join(repo, 'assets/people'),
  ];
  const seen = new Set<string>();
  const pictures: Picture[] = [];
  for (const root of roots)
    for (const file of filesUnder(root)) {
      const bytes = readFileSync(file);
      const hash = createHash('sha256').update(bytes).digest('hex');
      if (seen.has(hash)) continue;
      seen.add(hash);
      const from = path.relative(repo, file);
      pictures.push({ group: path.basename(path.dirname(file)), name: from, image: bytes });
    }
  return pictures;
}

/** The default content pack's pictures (presets, guidelines, quiz), as a fresh install shows them. */
function catalogPictures(): Picture[] {
  return filesUnder(path.join(defaultContentDir, 'pictures')).map((file) => ({
    group: `catalog ${path.basename(path.dirname(file))}`,
    name: path.relative(repo, file),
    image: readFileSync(file),
  }));
}

/** The picture squashed to the model's square, so a timing can leave decoding out. */
async function squashed(picture: Picture, size: number): Promise<Pixels> {
  const data = await sharp(picture.image)
    .rotate()
    .resize(size, size, { fit: 'fill' })
    .removeAlpha()
    .raw()
    .toBuffer();
  return { data, width: size, height: size };
}

interface ModelResult {
  model: NsfwModelName;
  loadMs: number;
  /** The fastest round, per picture: from the file (decode, squash, model) and the model alone. */
  perPictureMs: number;
  modelOnlyMs: number;
  scores: NsfwScores[];
}

async function measure(model: NsfwModelName, pictures: Picture[]): Promise<ModelResult> {
  const loadStarted = performance.now();
  await warmUp(model);
  const loadMs = Math.round(performance.now() - loadStarted);
  const { size } = nsfwModels[model];
  const inputs = await Promise.all(pictures.map((picture) => squashed(picture, size)));
  let scores: NsfwScores[] = [];
  let whole = Infinity;
  let modelOnly = Infinity;
  for (let round = 0; round < rounds; round++) {
    let started = performance.now();
    const roundScores: NsfwScores[] = [];
    for (const picture of pictures) roundScores.push(await nsfwScores(picture.image, model));
    whole = Math.min(whole, performance.now() - started);
    scores = roundScores;
    started = performance.now();
    for (const input of inputs) await nsfwScores(input, model);
    modelOnly = Math.min(modelOnly, performance.now() - started);
  }
  const result = {
    model,
    loadMs,
    perPictureMs: Math.round(whole / pictures.length),
    modelOnlyMs: Math.round(modelOnly / pictures.length),
    scores,
  };
  console.log(
    `  ${model}: loaded in ${loadMs} ms, ${result.perPictureMs} ms a picture (${result.modelOnlyMs} ms the model alone)`,
  );
  return result;
}

const explicit = (scores: NsfwScores) => scores.Porn + scores.Hentai;
const percent = (value: number) => `${(value * 100).toFixed(value < 0.001 ? 3 : 1)}%`;

const pictures = [...fixturePictures(), ...catalogPictures()].filter(
  (picture, index, all) =>
    all.slice(0, index).filter((earlier) => earlier.group === picture.group).length < perGroup,
);
const groups = [...new Set(pictures.map((picture) => picture.group))];
console.log(
  `nsfw: ${pictures.length} pictures (${groups.join(', ')}), models ${modelNames.join(', ')}, best of ${rounds} rounds`,
);
const results: ModelResult[] = [];
for (const model of modelNames) results.push(await measure(model, pictures));

const flaggedAt = (result: ModelResult, threshold: number, group?: string) =>
  pictures.filter(
    (picture, index) =>
      (!group || picture.group === group) && isFlagged(result.scores[index]!, threshold),
  );
const highest = (result: ModelResult, score: (scores: NsfwScores) => number) => {
  const index = result.scores.reduce(
    (best, scores, i) => (score(scores) > score(result.scores[best]!) ? i : best),
    0,
  );
  return `${percent(score(result.scores[index]!))} (${pictures[index]!.name})`;
};

const meta = {
  ...machine(),
  pictures: `${pictures.length}: ${groups.map((group) => `${group} ${pictures.filter((p) => p.group === group).length}`).join(', ')}`,
  'fixture folder': existsSync(fixturesDir)
    ? path.relative(repo, fixturesDir)
    : `${path.relative(repo, fixturesDir)} (absent: the repository's copies only)`,
  rule: `flagged when Porn + Hentai ≥ threshold or Sexy ≥ (1 + threshold) / 2 (isFlagged); threshold ${defaultNsfwThreshold}, NSFW_THRESHOLD's default`,
  'model the app runs': nsfwModel,
  method: `tfjs WASM backend, one picture at a time, best of ${rounds} rounds; "from the file" decodes and squashes the picture with sharp, "model alone" starts from pixels already at the model's size`,
};

const markdown = [
  '# NSFW classifier benchmark',
  '',
  'Written by `npm run bench nsfw` (`bench/nsfw.ts`); see `bench/README.md`. No picture here is explicit: every flag is a false positive.',
  '',
  ...Object.entries(meta).map(([key, value]) => `- ${key}: ${value}`),
  '',
  `| model | input | load + first run | per picture, from the file | per picture, model alone | false positives at ${defaultNsfwThreshold} | ${otherThresholds.map((t) => `at ${t}`).join(' | ')} | highest Porn + Hentai | highest Sexy |`,
  `|---|---:|---:|---:|---:|---:|${otherThresholds.map(() => '---:|').join('')}---|---|`,
  ...results.map(
    (result) =>
      `| ${result.model} | ${nsfwModels[result.model].size} px | ${result.loadMs} ms | ${result.perPictureMs} ms | ${result.modelOnlyMs} ms | ${flaggedAt(result, defaultNsfwThreshold).length} of ${pictures.length} | ${otherThresholds.map((t) => flaggedAt(result, t).length).join(' | ')} | ${highest(result, explicit)} | ${highest(result, (scores) => scores.Sexy)} |`,
  ),
  '',
  `False positives by group at ${defaultNsfwThreshold}:`,
  '',
  `| group | pictures | ${results.map((result) => result.model).join(' | ')} |`,
  `|---|---:|${results.map(() => '---:|').join('')}`,
  ...groups.map(
    (group) =>
      `| ${group} | ${pictures.filter((p) => p.group === group).length} | ${results.map((result) => flaggedAt(result, defaultNsfwThreshold, group).length).join(' | ')} |`,
  ),
  '',
  ...results.flatMap((result) => {
    const flagged = flaggedAt(result, otherThresholds[0]!);
    return flagged.length === 0
      ? []
      : [
          `${result.model}, flagged at ${otherThresholds[0]}: ${flagged
            .map((picture) => {
              const scores = result.scores[pictures.indexOf(picture)]!;
              return `${picture.name} (Porn + Hentai ${percent(explicit(scores))}, Sexy ${percent(scores.Sexy)})`;
            })
            .join('; ')}`,
          '',
        ];
  }),
].join('\n');

console.log(`\n${markdown}`);
writeResults('nsfw', markdown, {
  ...meta,
  models: results.map((result) => ({
    model: result.model,
    size: nsfwModels[result.model].size,
    loadMs: result.loadMs,
    perPictureMs: result.perPictureMs,
    modelOnlyMs: result.modelOnlyMs,
    pictures: pictures.map((picture, index) => ({
      group: picture.group,
      name: picture.name,
      scores: result.scores[index],
    })),
  })),
});

const appModel = results.find((result) => result.model === nsfwModel);
if (appModel && flaggedAt(appModel, defaultNsfwThreshold).length > 0) {
  console.error(`${nsfwModel} flags ordinary pictures at the default threshold`);
  process.exit(1);
}
