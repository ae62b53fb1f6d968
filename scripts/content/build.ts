// `npm run content:build`: makes the default content pack (assets/content/default: manifest.json,
// pictures, LICENSES.md) that a fresh install seeds its catalog from, and the landing page's
// prompt demo pictures (src/web/features/landing/assets). Every preset is pictured by the
// offline studio engine with three different people; the quiz's "AI" pictures are the engine's
// too. Pictures already in the pack are kept (the build takes about half an hour from nothing);
// `--fresh` makes them all again. Sources and licences: assets/people, assets/seed.
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import type { ContentManifest } from '../../src/server/features/catalog/content-import.ts';
import type { PresetScene } from '../../src/common/api/scene.ts';
import { landing } from '../../src/common/product/landing.ts';
import type { Gender } from '../../src/common/product/training.ts';
import { openStudio, type StudioJob, type StudioPerson, triggerWord } from '../support/studio.ts';
import { categories } from './catalog.ts';
import { withoutGhosts } from './composite-cleanup.ts';
import { tooDark, twoPeople, withSunglasses } from './guideline-photos.ts';
import { writeLicences, type Source } from './licences.ts';

const packDir = 'assets/content/default';
const demoDir = 'src/web/features/landing/assets';
const fresh = process.argv.includes('--fresh');

interface PersonEntry {
  id: string;
  photos: string[];
  gender: Gender;
  kind: 'composite' | 'real';
  source: string;
  licence: string;
  attribution: string;
}
const people = JSON.parse(readFileSync('assets/people/people.json', 'utf8')) as PersonEntry[];
const composites = people.filter((p) => p.kind === 'composite');

const personA: PersonEntry = {
  id: 'person-a',
  photos: ['a-01', 'a-02', 'a-03', 'a-04', 'a-05', 'a-06', 'a-07', 'a-08'].map((n) => `${n}.jpg`),
  gender: 'woman',
  kind: 'real',
  source: 'GitHub debruine/webmorphR.stim, inst/zoom/*.jpg and inst/lisa/*.jpg (assets/seed)',
  licence: 'CC0 1.0',
  attribution: 'Lisa DeBruine, selfies published by herself under CC0 (no attribution required)',
};
const photoFolder = (person: PersonEntry) =>
  person === personA ? 'assets/seed/person-a' : `assets/people/${person.id}`;

/**
 * The people of the preset pictures, ordered so that neighbours differ in gender and skin tone:
 * preset i is pictured with people i, i+3 and i+7 (mod 11), so a category's eight cards show
 * eight different people. The official portraits of real people in assets/people are not used
 * as marketing pictures (no endorsement may be implied); the composites show no real person.
 */
const catalogPeople: PersonEntry[] = [
  personA,
  ...[
    'composite-african-male',
    'composite-east-asian-female',
    'composite-white-male',
    'composite-west-asian-female',
    'composite-mixed-male',
    'composite-african-female',
    'composite-east-asian-male',
    'composite-white-female',
    'composite-west-asian-male',
    'composite-mixed-female',
  ].map((id) => composites.find((p) => p.id === id)!),
];

/**
 * The quiz's nine "AI" pictures, of nine people none of whom is among the seven real ones: six
 * members of Congress from assets/people (their public-domain official photos, not the six of the
 * real half) composed by the engine into a new official portrait, and three composites in plain,
 * believable places. The real half is official portraits too, so neither the setting, the
 * clothes nor the age of the faces gives the answer away.
 */
const officialPortrait: PresetScene = {
  place: 'studio',
  palette: { base: [66, 112, 142], accent: [120, 160, 186] },
  light: { direction: 'front', colour: [255, 248, 240], strength: 0.3 },
  // Press photos are printed rich: the engine's studio grade is quieter.
  grade: { saturation: 1.35, contrast: 1.08, brightness: 1.02, warmth: 0.1 },
  framing: 'headshot',
  depth: 0.15,
  vignette: 0.1,
  treatment: 'none',
};
const sharpPlace = (place: PresetScene['place']): PresetScene => ({
  place,
  depth: 0,
  treatment: 'none',
});
const quizAi: { person: string; prompt: string; scene: PresetScene }[] = [
  { person: 'congress-S001185', prompt: 'official portrait', scene: officialPortrait },
  {
    person: 'composite-african-male',
    prompt: 'portrait in a library',
    scene: sharpPlace('library'),
  },
  { person: 'congress-R000395', prompt: 'official portrait', scene: officialPortrait },
  {
    person: 'congress-M001188',
    prompt: 'official portrait',
    scene: { ...officialPortrait, framing: 'portrait' },
  },
  {
    person: 'composite-east-asian-female',
    prompt: 'portrait in a modern office',
    scene: sharpPlace('office'),
  },
  { person: 'congress-M001137', prompt: 'official portrait', scene: officialPortrait },
  { person: 'congress-F000450', prompt: 'official portrait', scene: officialPortrait },
  {
    person: 'composite-white-male',
    prompt: 'candid portrait on a city street',
    scene: sharpPlace('city-day'),
  },
  {
    person: 'congress-C001072',
    prompt: 'official portrait',
    scene: { ...officialPortrait, framing: 'portrait' },
  },
];

/** The seven real photos of the quiz, as they were (assets/seed/real-portraits). */
const quizRealPhotos = [
  'hopper',
  'chu',
  'beatty',
  'clyburn',
  'duckworth',
  'garamendi',
  'horsford',
].map((name) => `real-portraits/${name}.jpg`);

const pictureSizes = {
  featured: { width: 1024, height: 1280 },
  additional: { width: 640, height: 800 },
  /** Both quiz groups go through the same steps, so size and sharpness tell nothing. */
  quiz: { width: 480, height: 600, via: { width: 220, height: 275 } },
  demo: [320, 640],
} as const;

const studio = openStudio('content-build');
const trained = new Map<string, Promise<StudioPerson>>();
function studioPerson(person: PersonEntry): Promise<StudioPerson> {
  let ready = trained.get(person.id);
  if (!ready) {
    const photos = person.photos.map((f) => readFileSync(path.join(photoFolder(person), f)));
    ready = Promise.all(person.kind === 'composite' ? photos.map(withoutGhosts) : photos).then(
      (cleaned) => studio.person(person.id, cleaned, person.gender),
    );
    trained.set(person.id, ready);
  }
  return ready;
}

/** Every picture taken from a source photo, for LICENSES.md. */
const sources = new Map<string, Source>();
function usedSource(person: PersonEntry, picture: string) {
  const source = sources.get(person.id) ?? {
    person: person.id,
    files: person.photos.map((f) => `${photoFolder(person)}/${f}`),
    licence: person.licence,
    attribution: person.attribution,
    origin: person.source,
    pictures: [],
  };
  source.pictures.push(picture);
  sources.set(person.id, source);
}

let madeCount = 0;
/**
 * One picture of the pack: the HD picture a user would get, or, for a preset's additional
 * pictures (shown at most 640 px wide), the composition at canvas size (512x640): the HD pass
 * takes nine tenths of the time and adds nothing at that size.
 */
async function picture(
  file: string,
  person: PersonEntry,
  job: StudioJob,
  encode: (picture: Buffer) => Promise<Buffer>,
  quality: 'hd' | 'canvas' = 'hd',
): Promise<void> {
  usedSource(person, file);
  const target = path.join(packDir, file);
  if (existsSync(target) && !fresh) return;
  const started = performance.now();
  const pictured = await studioPerson(person);
  const made =
    quality === 'hd' ? await pictured.picture(job) : await pictured.draft(job, seedOf(job.id));
  const likeness = (await pictured.likeness(made)) / pictured.ownLikeness;
  mkdirSync(path.dirname(target), { recursive: true });
  writeFileSync(target, await encode(made));
  madeCount++;
  console.log(
    `${file}: ${person.id}, likeness ${likeness.toFixed(2)}× own photos, ${Math.round(performance.now() - started)} ms`,
  );
}

/** A stable number from a picture's id, so a build makes the same picture again. */
function seedOf(id: string): number {
  let hash = 2166136261;
  for (const char of id) hash = Math.imul(hash ^ char.charCodeAt(0), 16777619) >>> 0;
  return hash;
}

const webp = (size: { width: number; height: number }) => (bytes: Buffer) =>
  sharp(bytes).resize(size.width, size.height, { fit: 'cover' }).webp({ quality: 80 }).toBuffer();

/**
 * Both quiz halves at the same size through the same steps. The engine's pictures are also
 * sharpened a little, as a press photo is: composed from a 225 px photo, they are softer than the
 * official portraits, and softness alone would give them away.
 */
async function quizEncode(bytes: Buffer, sharpen = false): Promise<Buffer> {
  const { via, width, height } = pictureSizes.quiz;
  let small = sharp(bytes).resize(via.width, via.height, { fit: 'cover' });
  if (sharpen) small = small.sharpen({ sigma: 0.8, m2: 2 });
  return sharp(await small.toBuffer())
    .resize(width, height)
    .webp({ quality: 82 })
    .toBuffer();
}

/** Runs the jobs two at a time: the upscaler works in its own thread while the next picture is composed. */
async function inPairs(jobs: (() => Promise<void>)[]): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < jobs.length) await jobs[next++]!();
  };
  await Promise.all([worker(), worker()]);
}

if (fresh) rmSync(packDir, { recursive: true, force: true });
mkdirSync(packDir, { recursive: true });

const manifest: ContentManifest = {
  categories: [],
  presets: [],
  examplePhotos: [],
  quizImages: [],
};
const jobs: (() => Promise<void>)[] = [];

let presetIndex = 0;
for (const category of categories) {
  manifest.categories.push({
    manualId: category.manualId,
    displayName: category.displayName,
    emoji: category.emoji,
    featured: category.featured,
    active: true,
  });
  for (const preset of category.presets) {
    const cast = [0, 3, 7].map(
      (offset) => catalogPeople[(presetIndex + offset) % catalogPeople.length]!,
    );
    const files = cast.map((person) => `pictures/presets/${preset.manualId}-${person.id}.webp`);
    manifest.presets.push({
      manualId: preset.manualId,
      categoryId: category.manualId,
      displayName: preset.displayName,
      description: preset.description,
      prompt: preset.prompt,
      ...(preset.scene ? { scene: preset.scene } : {}),
      featuredImage: files[0]!,
      additionalImages: files.slice(1),
      active: true,
    });
    for (const [index, person] of cast.entries()) {
      const job: StudioJob = {
        id: `${preset.manualId}-${person.id}`,
        prompt: preset.prompt.replaceAll('{trigger}', triggerWord),
        preset: { id: preset.manualId, scene: preset.scene ?? null },
      };
      jobs.push(() =>
        index === 0
          ? picture(files[index]!, person, job, webp(pictureSizes.featured))
          : picture(files[index]!, person, job, webp(pictureSizes.additional), 'canvas'),
      );
    }
    presetIndex++;
  }
}

for (const [index, { person: id, prompt, scene }] of quizAi.entries()) {
  const person = people.find((p) => p.id === id)!;
  const file = `pictures/quiz/ai-${index + 1}.webp`;
  manifest.quizImages.push({ image: file, isAi: true });
  const job: StudioJob = {
    id: `quiz-${person.id}`,
    prompt: `photo of ${triggerWord}, ${prompt}`,
    preset: { id: `quiz-${index + 1}`, scene },
  };
  jobs.push(() => picture(file, person, job, (made) => quizEncode(made, true)));
}

// The prompt demo: person A's own selfie as the "Original", then the five example prompts.
const demoJobs = landing.demoPrompts.map((prompt, index) => async () => {
  const name = `demo-${index + 1}`;
  usedSource(personA, `${demoDir}/${name}-*.webp`);
  if (existsSync(path.join(demoDir, `${name}-640.webp`)) && !fresh) return;
  const person = await studioPerson(personA);
  const hd = await person.picture({
    id: `demo-${index}`,
    prompt: `photo of ${triggerWord}, ${prompt}`,
    preset: null,
  });
  console.log(
    `${name}: likeness ${((await person.likeness(hd)) / person.ownLikeness).toFixed(2)}× own photos`,
  );
  for (const width of pictureSizes.demo)
    writeFileSync(
      path.join(demoDir, `${name}-${width}.webp`),
      await sharp(hd)
        .resize(width, (width * 5) / 4)
        .webp({ quality: 80 })
        .toBuffer(),
    );
});

await inPairs([...jobs, ...demoJobs]);

const selfie = (name: string) => readFileSync(`assets/seed/person-a/${name}.jpg`);
for (const width of pictureSizes.demo)
  writeFileSync(
    path.join(demoDir, `demo-original-${width}.webp`),
    await sharp(selfie('a-01'))
      .resize(width, (width * 5) / 4, { fit: 'cover' })
      .webp({ quality: 80 })
      .toBuffer(),
  );

for (const [index, file] of quizRealPhotos.entries()) {
  const name = `pictures/quiz/real-${index + 1}.webp`;
  writeFileSync(path.join(packDir, name), await quizEncode(readFileSync(`assets/seed/${file}`)));
  manifest.quizImages.push({ image: name, isAi: false });
}

// The photo guidelines: four of person A's selfies as they are, then the bad examples.
const guidelines: { file: string; goodOrBad: 'good' | 'bad'; caption: string; bytes: Buffer }[] = [
  {
    file: 'good-1.jpg',
    goodOrBad: 'good',
    caption: 'Face the camera in even light, with only you in the photo',
    bytes: selfie('a-01'),
  },
  {
    file: 'good-2.jpg',
    goodOrBad: 'good',
    caption: 'Different places, hairstyles and expressions help your AI model',
    bytes: selfie('a-02'),
  },
  {
    file: 'good-3.jpg',
    goodOrBad: 'good',
    caption: 'Vary your angle a little from photo to photo',
    bytes: selfie('a-04'),
  },
  {
    file: 'good-4.jpg',
    goodOrBad: 'good',
    caption: 'Close-ups are fine as long as your face is sharp',
    bytes: selfie('a-05'),
  },
  {
    file: 'blurry.jpg',
    goodOrBad: 'bad',
    caption: 'Blurry: your face must be sharp',
    bytes: readFileSync('assets/seed/quality/blurry.jpg'),
  },
  {
    file: 'two-people.png',
    goodOrBad: 'bad',
    caption: 'Two people: only you should be in the photo',
    bytes: await twoPeople(selfie('a-03'), selfie('a-06')),
  },
  {
    file: 'tiny-face.jpg',
    goodOrBad: 'bad',
    caption: 'Face too small: come closer to the camera',
    bytes: readFileSync('assets/seed/quality/tiny-face.jpg'),
  },
  {
    file: 'sunglasses.png',
    goodOrBad: 'bad',
    caption: 'Sunglasses hide your eyes',
    bytes: await withSunglasses(selfie('a-07'), { x: 327, y: 313, span: 400 }),
  },
  {
    file: 'too-dark.png',
    goodOrBad: 'bad',
    caption: 'Too dark: find good, even light',
    bytes: await tooDark(selfie('a-08')),
  },
  {
    file: 'no-face.jpg',
    goodOrBad: 'bad',
    caption: 'No face: the photo must show you',
    bytes: readFileSync('assets/seed/not-a-face/cat.jpg'),
  },
];
mkdirSync(path.join(packDir, 'pictures/guidelines'), { recursive: true });
for (const photo of guidelines) {
  const file = `pictures/guidelines/${photo.file}`;
  writeFileSync(path.join(packDir, file), photo.bytes);
  manifest.examplePhotos.push({ image: file, goodOrBad: photo.goodOrBad, caption: photo.caption });
}

writeFileSync(path.join(packDir, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
writeLicences(path.join(packDir, 'LICENSES.md'), [...sources.values()]);
await studio.close();
console.log(
  `content pack: ${manifest.categories.length} categories, ${manifest.presets.length} presets, ` +
    `${manifest.examplePhotos.length} example photos, ${manifest.quizImages.length} quiz pictures; ` +
    `${madeCount} pictures made (${packDir})`,
);
