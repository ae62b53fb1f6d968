// `npm run engine:sheets`: contact sheets of the offline studio engine for docs/images/engine/.
// Each person (their photos fed to the local training engine) is pictured in ten presets of the
// default catalog (two per landing category) and ten custom prompts, through the same code a
// generation runs: the HD picture when --hd is given (and its likeness score, printed), else
// the composition at canvas size (fast, for looking). Writes one PNG sheet per person and kind.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { zipSync } from 'fflate';
import sharp from 'sharp';
import { LocalStorage } from '../src/server/adapters/storage/local-storage.ts';
import { storageKey } from '../src/server/adapters/storage/storage.ts';
import {
  createLocalGenerationEngine,
  renderPicture,
  sceneOf,
} from '../src/server/adapters/engine/local-generation.ts';
import {
  createLocalTrainingEngine,
  readLikenessProfile,
} from '../src/server/adapters/engine/local-training.ts';
import { loadCutout } from '../src/server/adapters/engine/studio/cutouts.ts';
import { examplePrompts } from '../src/server/adapters/engine/studio/prompt-examples.ts';
import { defaultCategories } from '../src/server/features/catalog/seed/default-content.ts';
import { analyzePhoto, faceSimilarity } from '../src/server/images/faces.ts';
import { closeUpscaler } from '../src/server/images/upscale.ts';

const hd = process.argv.includes('--hd');
const only = process.argv.slice(2).filter((arg) => !arg.startsWith('--'));
const out = 'docs/images/engine';
const tile = { width: 256, height: 320 };

const people: Record<string, string[]> = {
  'person-a': ['a-01', 'a-02', 'a-03', 'a-04', 'a-05', 'a-06', 'a-07', 'a-08'].map(
    (n) => `assets/seed/person-a/${n}.jpg`,
  ),
  'person-b': ['b-01', 'b-02', 'b-03', 'b-04'].map(
    (n) => `tests/fixtures/photos/person-b/${n}.jpg`,
  ),
};
// People of the default content (assets/people, see its LICENSES.md), when present.
try {
  for (const entry of readdirSync('assets/people', { withFileTypes: true })) {
    if (!entry.isDirectory()) continue;
    const folder = `assets/people/${entry.name}`;
    const files = readdirSync(folder).filter((f) => f.endsWith('.jpg'));
    if (files.length > 0) people[entry.name] = files.map((f) => `${folder}/${f}`);
  }
} catch {
  // No content people yet: the fixtures only.
}

const presets = defaultCategories.flatMap((category) => category.presets.slice(0, 2));

const root = mkdtempSync(path.join(os.tmpdir(), 'likeness-engine-sheets-'));
const storage = new LocalStorage({
  root,
  secret: 'engine-sheets',
  defaultTtlSeconds: 3600,
  publicPath: '/f',
});
const engine = createLocalGenerationEngine({ storage });

async function label(picture: Buffer, text: string): Promise<Buffer> {
  const svg = `<svg width="${tile.width}" height="24"><rect width="100%" height="100%" fill="#111"/><text x="6" y="16" font-family="DejaVu Sans" font-size="12" fill="#fff">${text.replace(/&/g, '&amp;').replace(/</g, '&lt;').slice(0, 38)}</text></svg>`;
  return sharp(picture)
    .resize(tile.width, tile.height)
    .extend({ bottom: 24, background: '#111' })
    .composite([{ input: Buffer.from(svg), top: tile.height, left: 0 }])
    .png()
    .toBuffer();
}

async function sheet(file: string, tiles: Buffer[]) {
  const columns = 5;
  const rows = Math.ceil(tiles.length / columns);
  const height = tile.height + 24;
  await sharp({
    create: { width: columns * tile.width, height: rows * height, channels: 3, background: '#111' },
  })
    .composite(
      tiles.map((input, i) => ({
        input,
        left: (i % columns) * tile.width,
        top: Math.floor(i / columns) * height,
      })),
    )
    .png({ compressionLevel: 9, palette: true, quality: 90 })
    .toFile(file);
  console.log('wrote', file);
}

for (const [person, files] of Object.entries(people)) {
  if (only.length > 0 && !only.includes(person)) continue;
  const photos = files.map((f) => readFileSync(f));
  const zipKey = storageKey('users', 'u', 'image_zips', `${person}.zip`);
  await storage.put(
    zipKey,
    Buffer.from(zipSync(Object.fromEntries(photos.map((b, i) => [`image_${i + 1}.jpg`, b])))),
    'application/zip',
  );
  const started = await createLocalTrainingEngine({ storage }).start({
    modelId: person,
    userId: 'u',
    zipKey,
    zipUrl: '',
    triggerWord: 'ohwx',
    steps: 1,
    gender: 'woman',
    webhookUrl: null,
  });
  if (started.state?.status !== 'succeeded')
    throw new Error(`${person}: ${JSON.stringify(started.state)}`);
  const weights = started.state.weights;
  const profile = await readLikenessProfile(storage, weights);
  let own = 0;
  for (const bytes of photos) {
    const { faces } = await analyzePhoto(bytes);
    own += Math.max(0, ...faces.map((f) => faceSimilarity(f.embedding, profile.embedding)));
  }
  own /= photos.length;
  console.log(`${person}: own photos' likeness ${own.toFixed(3)}`);
  const cutout = await loadCutout(storage, profile.cutouts[0]!);
  for (const [kind, jobs] of [
    [
      'presets',
      presets.map((p) => ({
        name: p.displayName,
        prompt: p.prompt.replaceAll('{trigger}', 'ohwx'),
        preset: { id: p.manualId, scene: p.scene ?? null },
      })),
    ],
    [
      'prompts',
      examplePrompts.map((p) => ({ name: p, prompt: `photo of ohwx, ${p}`, preset: null })),
    ],
  ] as const) {
    const tiles: Buffer[] = [];
    for (const [index, job] of jobs.entries()) {
      let picture: Buffer;
      let note = '';
      if (hd) {
        const outcome = await engine.generate(
          {
            generationId: `${person}-${kind}-${index}`,
            userId: 'u',
            weights,
            triggerWord: 'ohwx',
            gender: 'woman',
            prompt: job.prompt,
            preset: job.preset,
          },
          new AbortController().signal,
        );
        if (outcome.status !== 'succeeded')
          throw new Error(`${job.name}: ${JSON.stringify(outcome)}`);
        picture = outcome.image.bytes;
        const meta = await sharp(picture).metadata();
        const { faces } = await analyzePhoto(picture);
        const score = Math.max(
          0,
          ...faces.map((f) => faceSimilarity(f.embedding, profile.embedding)),
        );
        note = ` ${(score / own).toFixed(2)}×`;
        console.log(
          `${person} ${kind} ${job.name}: ${meta.width}x${meta.height}, likeness ${score.toFixed(3)} = ${(score / own).toFixed(2)}× own`,
        );
      } else {
        const scene = sceneOf({ prompt: job.prompt, triggerWord: 'ohwx', preset: job.preset });
        const image = await renderPicture(cutout, scene, index);
        picture = await sharp(image.data, {
          raw: { width: image.width, height: image.height, channels: 3 },
        })
          .png()
          .toBuffer();
      }
      tiles.push(await label(picture, `${job.name}${note}`));
    }
    await sheet(`${out}/${kind}-${person}.png`, tiles);
  }
}
await closeUpscaler();
rmSync(root, { recursive: true, force: true });
