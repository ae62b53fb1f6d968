// The variety check's measurements (decision 027): `varietyScore` for every pair of person A's
// 12 photos and person B's 4, and for each of person A's photos against synthetic edits of
// itself, each edited copy analysed by `analyzePhoto` as an upload would be (its own landmarks,
// its own patch). Prints the tables, the threshold's margins and the time per photo.
//
//   npm run bench variety
//   BENCH_EDITED_PHOTOS=12   person A's photos (the first N) analysed again in each synthetic
//                            edit; npm test's smoke run edits one, which runs every edit
//
// What the fixtures are (tests/fixtures/photos/README.md): a-01 to a-08 are 8 different selfies
// from two sessions; a-09 to a-12 are edits of a-01, a-03, a-02 and a-05 (webmorphR's zoom/30cm,
// zoom/45cm, lisa1 and zoom/60cm), and person B's 4 are edits of one photo. So the pairs are
// classed by source, not by file name.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp, { type Sharp } from 'sharp';
import { analyzePhoto, detectionMaxSide, warmUp } from '../src/server/images/faces.ts';
import { primaryFace, varietyRules } from '../src/server/images/photo-checks.ts';
import { varietyMeasures, varietyPatchOf, varietyScore } from '../src/server/images/variety.ts';
import { writeResults } from './support/results.ts';

const repo = fileURLToPath(new URL('../', import.meta.url));
const personA = Array.from({ length: 12 }, (_, i) => `a-${String(i + 1).padStart(2, '0')}`);
const personB = ['b-01', 'b-02', 'b-03', 'b-04'];
const edited = personA.slice(0, Math.max(1, Number(process.env.BENCH_EDITED_PHOTOS ?? 12)));

/** The shot each fixture was made from (the README's "Source" column). */
const shotOf: Record<string, string> = {
  'a-01': 'zoom/30cm',
  'a-02': 'lisa1',
  'a-03': 'zoom/45cm',
  'a-04': 'lisa2',
  'a-05': 'zoom/60cm',
  'a-06': 'lisa3',
  'a-07': 'zoom/15cm',
  'a-08': 'lisa4',
  'a-09': 'zoom/30cm',
  'a-10': 'zoom/45cm',
  'a-11': 'lisa1',
  'a-12': 'zoom/60cm',
};

function fixture(name: string): Buffer {
  const folder = name.startsWith('a-') ? 'person-a' : 'person-b';
  for (const base of ['assets/seed', 'tests/fixtures/photos']) {
    try {
      return readFileSync(path.join(repo, base, folder, `${name}.jpg`));
    } catch {
      // not in this folder
    }
  }
  throw new Error(`No fixture ${name}`);
}

async function rotated(bytes: Buffer, degrees: number): Promise<Buffer> {
  // Turned with a black fill, then cut back to the original size (the fill shows in the corners).
  const { width, height } = await sharp(bytes).metadata();
  const turned = await sharp(bytes).rotate(degrees, { background: '#000' }).toBuffer();
  const big = await sharp(turned).metadata();
  return sharp(turned)
    .extract({
      left: Math.round((big.width - width) / 2),
      top: Math.round((big.height - height) / 2),
      width,
      height,
    })
    .jpeg({ quality: 90 })
    .toBuffer();
}

async function cropped(bytes: Buffer, share: number, shift = 0): Promise<Buffer> {
  const { width, height } = await sharp(bytes).metadata();
  const w = Math.round(width * share);
  const h = Math.round(height * share);
  const left = Math.round(((width - w) / 2) * (1 + shift));
  const top = Math.round(((height - h) / 2) * (1 - shift));
  return sharp(bytes).extract({ left, top, width: w, height: h }).jpeg({ quality: 90 }).toBuffer();
}

const jpeg = (image: Sharp) => image.jpeg({ quality: 90 }).toBuffer();

/** The synthetic edits: what a user might do to one shot before uploading it again. */
const edits: { name: string; make: (bytes: Buffer) => Promise<Buffer> }[] = [
  { name: 'mirror', make: (b) => jpeg(sharp(b).flop()) },
  { name: 'brightness +20 %', make: (b) => jpeg(sharp(b).modulate({ brightness: 1.2 })) },
  { name: 'JPEG q50', make: (b) => sharp(b).jpeg({ quality: 50 }).toBuffer() },
  { name: 'crop 90 % centred', make: (b) => cropped(b, 0.9) },
  { name: 'rotate 5°', make: (b) => rotated(b, 5) },
  {
    name: 'resize 50 %',
    make: async (b) => {
      const { width } = await sharp(b).metadata();
      return jpeg(sharp(b).resize(Math.round(width / 2)));
    },
  },
  { name: 'mirror + crop 90 %', make: async (b) => cropped(await jpeg(sharp(b).flop()), 0.9) },
  {
    name: 'mirror + rotate −4° + bright + q60',
    make: async (b) =>
      sharp(await rotated(await jpeg(sharp(b).flop()), -4))
        .modulate({ brightness: 1.15 })
        .jpeg({ quality: 60 })
        .toBuffer(),
  },
  {
    name: 'crop 80 % off-centre + resize 70 %',
    make: async (b) => {
      const c = await cropped(b, 0.8, 0.5);
      const { width } = await sharp(c).metadata();
      return jpeg(sharp(c).resize(Math.round(width * 0.7)));
    },
  },
  { name: 'greyscale + contrast', make: (b) => jpeg(sharp(b).greyscale().linear(1.3, -30)) },
];

async function patchOf(bytes: Buffer): Promise<Buffer> {
  const face = primaryFace(await analyzePhoto(bytes));
  if (!face?.variety) throw new Error('No face with landmarks');
  return face.variety;
}

const fmt = (n: number) => n.toFixed(3);
const median = (list: number[]) => [...list].sort((x, y) => x - y)[Math.floor(list.length / 2)]!;

await warmUp();
const patches = new Map<string, Buffer>();
const analyseMs: number[] = [];
const patchMs: number[] = [];
for (const name of [...personA, ...personB]) {
  const bytes = fixture(name);
  const started = performance.now();
  patches.set(name, await patchOf(bytes));
  analyseMs.push(performance.now() - started);
  // The patch alone, as analyzePhoto makes it: from the detector's view of the photo.
  const analysis = await analyzePhoto(bytes);
  const face = primaryFace(analysis)!;
  const scale = Math.min(1, detectionMaxSide / Math.max(analysis.width, analysis.height));
  const view = await sharp(bytes)
    .rotate()
    .resize(Math.round(analysis.width * scale), Math.round(analysis.height * scale), {
      fit: 'fill',
    })
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const at = (p: [number, number]): [number, number] => [p[0] * scale, p[1] * scale];
  const landmarks = face.landmarks!;
  const patchStarted = performance.now();
  await varietyPatchOf(
    { data: view.data, width: view.info.width, height: view.info.height },
    {
      leftEye: at(landmarks.leftEye),
      rightEye: at(landmarks.rightEye),
      nose: at(landmarks.nose),
      mouth: at(landmarks.mouth),
    },
  );
  patchMs.push(performance.now() - patchStarted);
}

interface Pair {
  a: string;
  b: string;
  score: number;
  intensity: number;
  halfSize: number;
  mirrored: boolean;
  same: boolean;
  ms: number;
}
const compareMs: number[] = [];
function compare(a: string, b: string, pa: Buffer, pb: Buffer, same: boolean): Pair {
  const started = performance.now();
  const measures = varietyMeasures(pa, pb);
  const ms = performance.now() - started;
  compareMs.push(ms);
  return {
    ms,
    a,
    b,
    score: measures.score,
    intensity: measures.intensity,
    halfSize: measures.halfSize,
    mirrored: measures.mirrored,
    same,
  };
}

const pairsA: Pair[] = [];
for (let i = 0; i < personA.length; i++) {
  for (let j = i + 1; j < personA.length; j++) {
    const [a, b] = [personA[i]!, personA[j]!];
    pairsA.push(compare(a, b, patches.get(a)!, patches.get(b)!, shotOf[a] === shotOf[b]));
  }
}
const pairsB: Pair[] = [];
for (let i = 0; i < personB.length; i++) {
  for (let j = i + 1; j < personB.length; j++) {
    const [a, b] = [personB[i]!, personB[j]!];
    pairsB.push(compare(a, b, patches.get(a)!, patches.get(b)!, true));
  }
}
// What the check adds to the validation of the 12th photo of a draft of person A's 12: its
// patch and its comparisons with the 11 others (each pair's time as measured above).
const addedMs = personA.map((name) => {
  const own = pairsA.filter((pair) => pair.a === name || pair.b === name);
  return own.reduce((sum, pair) => sum + pair.ms, 0) + median(patchMs);
});
const symmetric: { same: boolean; difference: number; crosses: boolean }[] = [];
for (const pair of pairsA) {
  const reversed = varietyScore(patches.get(pair.b)!, patches.get(pair.a)!);
  const threshold = varietyRules.sameShotMinScore;
  symmetric.push({
    same: pair.same,
    difference: Math.abs(pair.score - reversed),
    crosses: pair.score >= threshold !== reversed >= threshold,
  });
}
const largestDifference = (same: boolean) =>
  Math.max(...symmetric.filter((s) => s.same === same).map((s) => s.difference));

const editRows: Pair[] = [];
for (const name of edited) {
  const original = fixture(name);
  for (const edit of edits) {
    const copy = await edit.make(original);
    let patch: Buffer;
    try {
      patch = await patchOf(copy);
    } catch {
      console.log(`${name} ${edit.name}: no single face found in the copy`);
      continue;
    }
    editRows.push(compare(name, edit.name, patches.get(name)!, patch, true));
  }
}

const threshold = varietyRules.sameShotMinScore;
const distinct = pairsA.filter((pair) => !pair.same);
const sameShot = [...pairsA.filter((pair) => pair.same), ...pairsB, ...editRows];
const maxDistinct = distinct.reduce((best, p) => (p.score > best.score ? p : best));
const minSame = sameShot.reduce((low, p) => (p.score < low.score ? p : low));
const errors = [
  ...distinct.filter((p) => p.score >= threshold),
  ...sameShot.filter((p) => p.score < threshold),
];

const lines: string[] = [];
lines.push('# Variety check: same shot or different shot');
lines.push('');
lines.push(
  "`npm run bench variety` (bench/variety.ts), decision 027. `varietyScore` of two photos' variety " +
    'patches (96x112 grey, eyes 20 px apart, from `analyzePhoto` at 1024 px): affine Lucas–Kanade ' +
    'registration coarse to fine, as is and mirrored, then the correlation of the aligned ' +
    'gradients (1 = identical). "intensity" is the plain correlation of the aligned grey values, ' +
    'for comparison only.',
);
lines.push('');
lines.push('## Summary');
lines.push('');
lines.push(`| | pairs | lowest | median | highest |`);
lines.push(`| --- | ---: | ---: | ---: | ---: |`);
const summary = (label: string, list: Pair[]) => {
  const scores = list.map((p) => p.score);
  lines.push(
    `| ${label} | ${list.length} | ${fmt(Math.min(...scores))} | ${fmt(median(scores))} | ${fmt(Math.max(...scores))} |`,
  );
};
summary('person A, different shots', distinct);
summary(
  'person A, two fixtures of one shot',
  pairsA.filter((p) => p.same),
);
summary('person B, four edits of one shot', pairsB);
summary('person A against synthetic edits of itself', editRows);
lines.push('');
lines.push(
  `Threshold \`sameShotMinScore\` = ${threshold}: highest different-shot pair ${fmt(maxDistinct.score)} ` +
    `(${maxDistinct.a} / ${maxDistinct.b}), lowest same-shot pair ${fmt(minSame.score)} ` +
    `(${minSame.a} / ${minSame.b}); margins ${fmt(threshold - maxDistinct.score)} below and ` +
    `${fmt(minSame.score - threshold)} above. Misclassified at this threshold: ${errors.length}.`,
);
lines.push('');
lines.push(
  `The full-size level runs only when the half-size alignment scores 0.8 or more: same-shot pairs ` +
    `score ${fmt(Math.min(...sameShot.map((p) => p.halfSize)))} or more there; ` +
    `${distinct.filter((p) => p.halfSize < 0.8).length} of the ${distinct.length} different-shot pairs stop at half size ` +
    `(their score is the half-size one).`,
);
lines.push('');
lines.push(
  `Time (warm, one core of the shared 2-core machine): analysing a fixture (detection, mesh, ` +
    `descriptor, patch) median ${median(analyseMs).toFixed(0)} ms, of which the patch ` +
    `${median(patchMs).toFixed(1)} ms; one comparison (both orientations) median ` +
    `${median(compareMs).toFixed(1)} ms, max ${Math.max(...compareMs).toFixed(1)} ms. Added to the ` +
    `validation of a photo joining 11 others: median ${median(addedMs).toFixed(0)} ms, max ` +
    `${Math.max(...addedMs).toFixed(0)} ms. The earlier photo of a pair is always the template: ` +
    `score(a, b) and score(b, a) differ by up to ${fmt(largestDifference(true))} for one shot and ` +
    `${fmt(largestDifference(false))} for different shots; pairs on different sides of the ` +
    `threshold the two ways round: ${symmetric.filter((s) => s.crosses).length}.`,
);
lines.push('');
lines.push('## Person A: all 66 pairs');
lines.push('');
lines.push('| pair | shots | same shot | score | intensity | mirrored |');
lines.push('| --- | --- | :-: | ---: | ---: | :-: |');
for (const p of [...pairsA].sort((x, y) => y.score - x.score)) {
  lines.push(
    `| ${p.a} / ${p.b} | ${shotOf[p.a]} / ${shotOf[p.b]} | ${p.same ? 'yes' : ''} | ${fmt(p.score)}${p.halfSize < 0.8 ? ' (half size)' : ''} | ${p.halfSize < 0.8 ? '—' : fmt(p.intensity)} | ${p.mirrored ? 'yes' : ''} |`,
  );
}
lines.push('');
lines.push('## Person B: all 6 pairs (four edits of one photo)');
lines.push('');
lines.push('| pair | score | intensity | mirrored |');
lines.push('| --- | ---: | ---: | :-: |');
for (const p of pairsB) {
  lines.push(
    `| ${p.a} / ${p.b} | ${fmt(p.score)} | ${fmt(p.intensity)} | ${p.mirrored ? 'yes' : ''} |`,
  );
}
lines.push('');
lines.push('## Person A against synthetic edits of itself');
lines.push('');
lines.push(`| photo | ${edits.map((e) => e.name).join(' | ')} |`);
lines.push(`| --- | ${edits.map(() => '---:').join(' | ')} |`);
for (const name of edited) {
  const cells = edits.map((edit) => {
    const row = editRows.find((r) => r.a === name && r.b === edit.name);
    return row ? fmt(row.score) : 'no face';
  });
  lines.push(`| ${name} | ${cells.join(' | ')} |`);
}
lines.push('');
const markdown = `${lines.join('\n')}\n`;
console.log(markdown);
writeResults('variety', markdown);
if (errors.length > 0) {
  console.error(`${errors.length} pairs on the wrong side of the threshold`);
  process.exitCode = 1;
}
