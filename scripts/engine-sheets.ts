// `npm run engine:sheets`: contact sheets of the offline studio engine for docs/images/engine/.
// Each person (their photos fed to the local training engine) is pictured in ten presets of the
// default catalog (two per landing category) and ten custom prompts, through the same code a
// generation runs: the HD picture when --hd is given (and its likeness score, printed), else
// the composition at canvas size (fast, for looking). Writes one PNG sheet per person and kind.
import { readdirSync, readFileSync } from 'node:fs';
import sharp from 'sharp';
import { examplePrompts } from '../src/server/adapters/engine/studio/prompt-examples.ts';
import { categories } from './content/catalog.ts';
import { withoutGhosts } from './content/composite-cleanup.ts';
import { openStudio, triggerWord } from './support/studio.ts';

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

const presets = categories.flatMap((category) => category.presets.slice(0, 2));

const studio = openStudio('engine-sheets');

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
  // The composites as the content build trains them (decision 066).
  const photos = files.map((f) => readFileSync(f));
  const studioPerson = await studio.person(
    person,
    person.startsWith('composite-') ? await Promise.all(photos.map(withoutGhosts)) : photos,
    'woman',
  );
  const own = studioPerson.ownLikeness;
  console.log(`${person}: own photos' likeness ${own.toFixed(3)}`);
  for (const [kind, jobs] of [
    [
      'presets',
      presets.map((p) => ({
        name: p.displayName,
        prompt: p.prompt.replaceAll('{trigger}', triggerWord),
        preset: { id: p.manualId, scene: p.scene ?? null },
      })),
    ],
    [
      'prompts',
      examplePrompts.map((p) => ({
        name: p,
        prompt: `photo of ${triggerWord}, ${p}`,
        preset: null,
      })),
    ],
  ] as const) {
    const tiles: Buffer[] = [];
    for (const [index, entry] of jobs.entries()) {
      let picture: Buffer;
      let note = '';
      const job = { id: `${person}-${kind}-${index}`, prompt: entry.prompt, preset: entry.preset };
      if (hd) {
        picture = await studioPerson.picture(job);
        const meta = await sharp(picture).metadata();
        const score = await studioPerson.likeness(picture);
        note = ` ${(score / own).toFixed(2)}×`;
        console.log(
          `${person} ${kind} ${entry.name}: ${meta.width}x${meta.height}, likeness ${score.toFixed(3)} = ${(score / own).toFixed(2)}× own`,
        );
      } else {
        picture = await studioPerson.draft(job, index);
      }
      tiles.push(await label(picture, `${entry.name}${note}`));
    }
    await sheet(`${out}/${kind}-${person}.png`, tiles);
  }
}
await studio.close();
