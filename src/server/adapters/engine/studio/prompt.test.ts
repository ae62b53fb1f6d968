import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readPrompt } from './prompt.ts';
import { neutralScene, places, sceneSchema, type Scene } from './scene.ts';
import { colourNames, placeWords, vocabularyPhrases } from './vocabulary.ts';

type Expected = Partial<Pick<Scene, 'place' | 'time' | 'weather' | 'treatment' | 'framing'>> & {
  clothing?: Scene['clothing'];
};

const examples: [string, Expected][] = [
  [
    'an astronaut floating in space',
    { place: 'space', time: 'night', weather: 'clear', treatment: 'none', clothing: null },
  ],
  [
    'beach at sunset, red summer dress',
    {
      place: 'beach',
      time: 'dusk',
      weather: 'clear',
      treatment: 'none',
      clothing: colourNames.red,
    },
  ],
  [
    'snowy village at night',
    { place: 'snow', time: 'night', weather: 'snow', treatment: 'none', clothing: null },
  ],
  [
    'professional headshot in a modern office',
    { place: 'office', time: 'day', weather: 'clear', framing: 'headshot', treatment: 'none' },
  ],
  [
    'cyberpunk city in the rain with neon lights',
    { place: 'city-night', time: 'night', weather: 'rain', treatment: 'none', clothing: null },
  ],
  [
    'oil painting of me as a medieval queen',
    { place: 'castle', weather: 'clear', treatment: 'painterly', clothing: null },
  ],
  [
    'black and white film noir portrait',
    { place: 'studio', framing: 'portrait', treatment: 'mono', clothing: null },
  ],
  [
    'cozy cafe in autumn, warm light',
    { place: 'cafe', time: 'day', weather: 'clear', treatment: 'none', clothing: null },
  ],
  [
    'on a mountain top at golden hour',
    { place: 'mountains', time: 'golden', weather: 'clear', treatment: 'none' },
  ],
  [
    'underwater with fish',
    { place: 'underwater', weather: 'clear', treatment: 'none', clothing: null },
  ],
];

const long = 'portrait of me at the beach at golden hour, wearing a green linen shirt, '.repeat(30);

/** Fifty prompts of every kind; each must give a valid scene, the same one every time. */
const varied: string[] = [
  'photo of TOK, a knight in shining armor in front of a castle',
  'photo of TOK, corporate headshot, grey background, soft light',
  'TOK as a rock star on stage under a spotlight',
  'a cup of coffee in a paris bistro, morning light from the left',
  'library full of old books, dark academia, candlelight',
  'art gallery opening, elegant black gown',
  'loft apartment with exposed brick and window light',
  'times square at midnight in the snow',
  'rooftop bar at dusk, teal and orange',
  'tropical island with palm trees, vibrant colors',
  'lake house dock at sunrise, misty',
  'hiking in the alps, wide angle, sharp background',
  'enchanted forest with fairy lights, dreamy',
  'autumn leaves in central park, wearing a mustard coat',
  'sunflower field in summer, cheerful',
  'cherry blossom garden in spring, pastel pink sky',
  'sahara desert dunes at noon, harsh sun',
  'ski slope, blizzard, red ski jacket',
  'flying above the clouds like an angel',
  'galaxy nebula, purple and blue',
  'coral reef with turtles, scuba diving',
  'synthwave retro 80s grid, neon pink and cyan lights',
  'vaporwave aesthetic, duotone pink and purple',
  'pop art comic book style, bold colours',
  'pencil sketch portrait, close-up',
  'VHS glitch camcorder still from 1995',
  'sepia tone old photograph, victorian',
  'polaroid snapshot, faded, light leak',
  'watercolor painting of me in a garden',
  'full body shot, wearing a navy blue suit and a red tie',
  'waist up, rim light, backlit, dark moody',
  'no rain, not foggy, clear sky',
  'ASTRONAUT!!! IN SPACE!!!',
  'Café au lait à Paris, lumière douce',
  'retrato en la playa al atardecer',
  '雪の村の夜',
  'портрет в космосе',
  '🚀🌌✨ me in space ✨🌌🚀',
  '🌈🌈🌈',
  '',
  '   ',
  '...,,,;;;',
  'asdfghjkl qwertyuiop zxcvbnm',
  'the of and a an with',
  '1234567890',
  'red',
  'light',
  'dark dark dark dark dark dark dark dark dark dark dark dark',
  'warm cold warm cold hot pink deep blue pale yellow',
  long,
];

function expectValid(scene: Scene): void {
  expect(sceneSchema.safeParse(scene).success).toBe(true);
}

describe('readPrompt', () => {
  it.each(examples)('reads "%s"', (prompt, expected) => {
    const { scene } = readPrompt(prompt);
    expectValid(scene);
    expect(scene).toMatchObject(expected);
  });

  it('reads the example prompts beyond the scene parts', () => {
    const neon = readPrompt('cyberpunk city in the rain with neon lights');
    expect(neon.understood).toEqual(['cyberpunk', 'rain', 'neon lights']);
    expect(neon.scene.rim).not.toBeNull();

    const cafe = readPrompt('cozy cafe in autumn, warm light').scene;
    expect(cafe.grade.warmth).toBeGreaterThan(neutralScene.grade.warmth);
    expect(cafe.light.colour).toEqual([255, 200, 140]);

    const beach = readPrompt('beach at sunset, red summer dress').understood;
    expect(beach).toEqual(['beach', 'sunset', 'red', 'summer', 'dress']);
  });

  it.each(varied.map((prompt) => [prompt.slice(0, 60), prompt]))(
    'gives a valid scene, every time, for "%s"',
    (_, prompt) => {
      const first = readPrompt(prompt);
      expectValid(first.scene);
      expect(readPrompt(prompt)).toEqual(first);
    },
  );

  it('has fifty varied prompts, one of them 2,000 characters or more', () => {
    expect(varied).toHaveLength(50);
    expect(long.length).toBeGreaterThanOrEqual(2000);
    expect(readPrompt(long).scene).toMatchObject({ place: 'beach', time: 'golden' });
  });

  it.each([
    'asdfghjkl qwertyuiop',
    '',
    '🌈🌈🌈',
    'photo of TOK',
    'retrato en la playa al atardecer',
    'blue eyes and blonde hair',
  ])('gives the neutral scene for "%s"', (prompt) => {
    expect(readPrompt(prompt)).toEqual({ scene: neutralScene, understood: [] });
  });

  it('knows at least 300 words and phrases, each documented', () => {
    const phrases = vocabularyPhrases();
    expect(phrases.length).toBeGreaterThanOrEqual(300);
    const documentation = readFileSync(
      new URL('../../../../../docs/prompt-vocabulary.md', import.meta.url),
      'utf8',
    );
    const undocumented = phrases.filter((phrase) => !documentation.includes(`\`${phrase}\``));
    expect(undocumented).toEqual([]);
  });

  it('reaches every place by its words', () => {
    for (const place of places) {
      for (const word of placeWords.named[place]) {
        expect(readPrompt(word).scene.place, word).toBe(place);
      }
    }
  });

  it('matches phrases before words', () => {
    expect(readPrompt('new york at night').scene).toMatchObject({
      place: 'city-night',
      time: 'night',
    });
    expect(readPrompt('night').scene).toMatchObject({ place: 'studio', time: 'night' });
    expect(readPrompt('golden hour')).toMatchObject({
      scene: { time: 'golden' },
      understood: ['golden hour'],
    });
    expect(readPrompt('golden').scene).toMatchObject({
      time: 'day',
      palette: { base: colourNames.golden },
    });
    expect(readPrompt('charcoal drawing').scene).toMatchObject({
      treatment: 'sketch',
      clothing: null,
    });
    expect(readPrompt('charcoal suit').scene.clothing).toEqual(colourNames.charcoal);
    expect(readPrompt('times square during the day').scene.place).toBe('city-day');
  });

  it('ignores case, accents, plurals and "-y" adjectives', () => {
    expect(readPrompt('BEACH AT SUNSET').scene).toMatchObject({ place: 'beach', time: 'dusk' });
    expect(readPrompt('Café').scene.place).toBe('cafe');
    expect(readPrompt('mountains').scene.place).toBe('mountains');
    expect(readPrompt('foggy').scene.weather).toBe('fog');
    expect(readPrompt('a king’s castle').understood).toEqual(['kings', 'castle']);
    expect(readPrompt('stars').scene.place).toBe('space');
  });

  it('colours the clothes next to a garment and the backdrop otherwise', () => {
    expect(readPrompt('in a blue suit').scene.clothing).toEqual(colourNames.blue);
    expect(readPrompt('wearing a yellow raincoat').scene.clothing).toEqual(colourNames.yellow);
    expect(readPrompt('wearing red').scene.clothing).toEqual(colourNames.red);
    expect(readPrompt('a red dress with a blue scarf').scene.clothing).toEqual(colourNames.red);
    expect(readPrompt('pink sky').scene.palette.base).toEqual(colourNames.pink);
    expect(readPrompt('teal and orange').scene).toMatchObject({
      palette: { base: colourNames.teal, accent: colourNames.orange },
      clothing: null,
    });
    expect(readPrompt('dark red dress').scene.clothing).toEqual([110, 17, 22]);
    expect(readPrompt('pink and blue neon lights').scene.rim?.colour).toEqual(colourNames.blue);
  });

  it('lets later words refine earlier ones', () => {
    expect(readPrompt('sunset turning into night').scene.time).toBe('night');
    expect(readPrompt('close-up portrait').scene.framing).toBe('headshot');
    expect(readPrompt('black and white film photo').scene).toMatchObject({
      treatment: 'mono',
      grain: 0.3,
    });
    expect(readPrompt('a lake in the mountains').scene.place).toBe('lake');
    expect(readPrompt('a queen in a rose garden').scene.place).toBe('garden');
    expect(readPrompt('soft light, light from the right').scene.light).toMatchObject({
      direction: 'right',
      strength: 0.25,
    });
  });

  it('gives the duotone the colours named, darker in the shadows', () => {
    expect(readPrompt('duotone, pink and navy').scene.duotone).toEqual([
      colourNames.navy,
      colourNames.pink,
    ]);
    expect(readPrompt('duotone').scene.duotone).not.toBeNull();
    expect(readPrompt('sepia').scene.duotone).toBeNull();
  });

  it('ignores what follows a negation', () => {
    expect(readPrompt('no rain').understood).toEqual([]);
  });
});
