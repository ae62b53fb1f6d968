import type { PresetScene } from '../../../adapters/engine/studio/scene.ts';
import type { LookName } from './looks.ts';

/**
 * The catalog a fresh install starts with: the landing page's five carousel categories, seven
 * presets each, the photo guidelines' good and bad examples and the quiz's sixteen pictures.
 * Pictures are made at seed time from the public-domain and CC0 photos in assets/seed (see
 * assets/seed/LICENSES.md); an operator replaces any of it from the admin API or
 * `npm run content -- import`.
 */

/**
 * A source photo in assets/seed, where the face is (shares of width and height) and how close
 * to crop it by default (the door behind the headband photos is framed out a little).
 */
export interface SourcePhoto {
  file: string;
  face: { x: number; y: number };
  zoom: number;
}

// Person A (Lisa DeBruine, CC0): eight different selfies from two sessions.
export const sources = {
  headband: { file: 'person-a/a-01.jpg', face: { x: 0.52, y: 0.46 }, zoom: 1.18 },
  purpleHair: { file: 'person-a/a-02.jpg', face: { x: 0.48, y: 0.5 }, zoom: 1 },
  headbandWarm: { file: 'person-a/a-03.jpg', face: { x: 0.52, y: 0.5 }, zoom: 1.18 },
  purpleTilt: { file: 'person-a/a-04.jpg', face: { x: 0.46, y: 0.5 }, zoom: 1 },
  headbandClose: { file: 'person-a/a-05.jpg', face: { x: 0.5, y: 0.48 }, zoom: 1 },
  purpleSide: { file: 'person-a/a-06.jpg', face: { x: 0.42, y: 0.45 }, zoom: 1 },
  headbandNear: { file: 'person-a/a-07.jpg', face: { x: 0.52, y: 0.52 }, zoom: 1 },
  purpleSoft: { file: 'person-a/a-08.jpg', face: { x: 0.4, y: 0.45 }, zoom: 1 },
} as const satisfies Record<string, SourcePhoto>;

export type SourceName = keyof typeof sources;

/** How a picture is made: which photo, framed how, in which look. */
export interface PictureRecipe {
  source: SourceName;
  look: LookName;
  mirror?: boolean;
  zoom?: number;
}

export interface DefaultPreset {
  manualId: string;
  displayName: string;
  description: string;
  /** `{trigger}` is replaced by the user model's trigger word. */
  prompt: string;
  /** The offline studio's scene, where reading the prompt alone would not get it right. */
  scene?: PresetScene;
  featured: PictureRecipe;
  /** The detail page's further examples: the same look on another photo. */
  additional: PictureRecipe[];
}

export interface DefaultCategory {
  manualId: string;
  displayName: string;
  emoji: string;
  featured: boolean;
  presets: DefaultPreset[];
}

/** Same look, another photo: the detail page shows the style is not tied to one picture. */
function preset(
  manualId: string,
  displayName: string,
  description: string,
  prompt: string,
  look: LookName,
  featured: SourceName,
  additional: SourceName,
  framing: { mirror?: boolean; zoom?: number } = {},
  scene?: PresetScene,
): DefaultPreset {
  return {
    manualId,
    displayName,
    description,
    prompt,
    ...(scene ? { scene } : {}),
    featured: { source: featured, look, ...framing },
    additional: [{ source: additional, look, mirror: !framing.mirror }],
  };
}

export const defaultCategories: DefaultCategory[] = [
  {
    manualId: 'professional',
    displayName: 'Professional',
    emoji: '💼',
    featured: true,
    presets: [
      preset(
        'corporate-headshot',
        'Corporate Headshot',
        'A classic, trustworthy headshot on a soft grey studio backdrop. Made for LinkedIn, company pages and press.',
        'professional corporate headshot of {trigger}, wearing a tailored charcoal blazer, soft grey seamless studio backdrop, three-point softbox lighting, shallow depth of field, 85mm lens, sharp focus on the eyes, natural skin texture',
        'corporateHeadshot',
        'headband',
        'purpleHair',
        { zoom: 1.1 },
      ),
      preset(
        'executive-portrait',
        'Executive Portrait',
        'Confident and commanding: deep navy tones and dramatic side light for leaders and founders.',
        'executive portrait of {trigger}, dark navy suit, deep blue studio background, dramatic Rembrandt side lighting, confident expression, medium close-up, editorial business magazine style, high detail',
        'executivePortrait',
        'purpleTilt',
        'headbandClose',
      ),
      preset(
        'startup-founder',
        'Startup Founder',
        'Bright, modern and approachable, with the soft glow of a sunlit office behind you.',
        'candid portrait of {trigger} in a bright modern startup office, smart casual outfit, warm window light, blurred plants and glass walls in the background, friendly smile, 50mm lens, natural colours',
        'startupFounder',
        'headbandWarm',
        'purpleSide',
      ),
      preset(
        'linkedin-fresh',
        'LinkedIn Fresh',
        'Clean, high-key and friendly on a white backdrop: a profile photo that looks current.',
        'clean high-key headshot of {trigger} on a pure white background, light blue shirt, even beauty-dish lighting, approachable smile, crisp focus, professional profile photo',
        'linkedinFresh',
        'purpleHair',
        'headband',
      ),
      preset(
        'black-and-white-editorial',
        'Black & White Editorial',
        'Timeless monochrome with strong contrast and fine film grain, like a magazine profile.',
        'black and white editorial portrait of {trigger}, high contrast, dark textured backdrop, single hard key light, fine film grain, thoughtful expression, shot on Tri-X 400',
        'blackAndWhiteEditorial',
        'headbandClose',
        'purpleSoft',
        { zoom: 1.08 },
      ),
      preset(
        'conference-speaker',
        'Conference Speaker',
        'On stage under the spotlight, with the glow of the hall behind you.',
        'photo of {trigger} speaking on a conference stage, spotlight from above, deep blue stage lights and bokeh in the background, lapel microphone, confident gesture, event photography',
        'conferenceSpeaker',
        'purpleSide',
        'headbandWarm',
      ),
      preset(
        'warm-natural-light',
        'Warm Natural Light',
        'Soft golden window light and warm tones for a natural, approachable portrait.',
        'natural light portrait of {trigger} beside a large window, warm golden afternoon light, soft shadows, cream knit sweater, relaxed expression, 35mm film look',
        'warmNaturalLight',
        'headbandNear',
        'purpleTilt',
        { zoom: 1.05 },
      ),
    ],
  },
  {
    manualId: '80s-nostalgia',
    displayName: '80s',
    emoji: '📼',
    featured: true,
    presets: [
      preset(
        'neon-grid',
        'Neon Grid',
        'Synthwave sunset, magenta glow and a neon grid running to the horizon.',
        'synthwave portrait of {trigger}, retro 1980s style, neon magenta and cyan lighting, glowing grid floor, striped sunset sun, chrome sunglasses pushed up, outrun aesthetic',
        'neonGrid',
        'purpleHair',
        'headband',
      ),
      preset(
        'laser-yearbook',
        'Laser Yearbook',
        'The school portrait everyone had: laser beams, soft focus and big 80s energy.',
        '1980s school yearbook portrait of {trigger}, laser beam background, soft focus glow, big feathered hair, pastel sweater, vintage studio photo, film grain',
        'laserYearbook',
        'headband',
        'purpleTilt',
        {},
        // The reader finds a vintage studio; the lasers are the preset's own blue and pink.
        {
          palette: { base: [60, 80, 190], accent: [255, 90, 220] },
          rim: { colour: [120, 200, 255], strength: 0.5 },
        },
      ),
      preset(
        'vhs-memories',
        'VHS Memories',
        'A paused home video from 1986: scanlines, colour bleed and the orange date stamp.',
        'VHS camcorder still of {trigger}, 1986 home video, scanlines, chromatic aberration, washed-out colours, orange date stamp in the corner, nostalgic living room',
        'vhsMemories',
        'purpleSide',
        'headbandClose',
      ),
      preset(
        'miami-nights',
        'Miami Nights',
        'Teal and pink under palm silhouettes: pure Miami Vice.',
        'portrait of {trigger} in 1980s Miami at night, pastel linen jacket, pink and teal neon, palm tree silhouettes, warm humid air, cinematic retro film still',
        'miamiNights',
        'headbandWarm',
        'purpleSoft',
      ),
      preset(
        'arcade-glow',
        'Arcade Glow',
        'Lit by the cabinet screens in a neon arcade, with a pixel frame and a high score.',
        'portrait of {trigger} in a neon 1980s video arcade, lit by glowing cabinet screens, cyan and magenta light, pixel art details, retro gaming atmosphere',
        'arcadeGlow',
        'purpleTilt',
        'headbandNear',
      ),
      preset(
        'polaroid-84',
        "Polaroid '84",
        'A faded instant photo from a summer long ago, light leak included.',
        'faded instant film photo of {trigger}, summer 1984, warm light leak, soft colours, white border, candid smile, nostalgic snapshot',
        'polaroid84',
        'headbandClose',
        'purpleHair',
      ),
      preset(
        'aerobics-pop',
        'Aerobics Pop',
        'Candy colours and Memphis shapes: leotards, headbands and pure fun.',
        'bright 1980s aerobics portrait of {trigger}, neon leotard and headband, Memphis design shapes in the background, candy pink and yellow, studio flash, playful energy',
        'aerobicsPop',
        'purpleSoft',
        'headbandWarm',
      ),
    ],
  },
  {
    manualId: 'classy',
    displayName: 'Classy',
    emoji: '🥂',
    featured: true,
    presets: [
      preset(
        'old-hollywood',
        'Old Hollywood',
        'Silver-screen glamour: soft glow, deep shadows and black and white.',
        'old Hollywood glamour portrait of {trigger}, 1940s studio photography, black and white, butterfly lighting, soft glow, satin and pearls, deep shadows, film grain',
        'oldHollywood',
        'headband',
        'purpleSide',
        { zoom: 1.06 },
      ),
      preset(
        'black-tie-gala',
        'Black Tie Gala',
        'Evening wear, warm candlelight and golden bokeh at an elegant gala.',
        'portrait of {trigger} at a black tie gala, elegant evening wear, warm candlelight, golden bokeh from chandeliers, luxurious ballroom, cinematic depth of field',
        'blackTieGala',
        'purpleHair',
        'headbandNear',
      ),
      preset(
        'renaissance-oil',
        'Renaissance Oil',
        'Painted like an old master, in warm umber tones inside a gilded frame.',
        'renaissance oil painting portrait of {trigger}, old master style, warm umber palette, chiaroscuro lighting, velvet garments, visible brushstrokes, ornate gilded frame',
        'renaissanceOil',
        'headbandClose',
        'purpleTilt',
      ),
      preset(
        'parisian-cafe',
        'Parisian Café',
        'Soft afternoon light at a café terrace in Paris, warm and effortless.',
        'portrait of {trigger} at a Parisian café terrace, trench coat, espresso cup, soft afternoon light, warm muted tones, blurred Haussmann buildings, film photography',
        'parisianCafe',
        'purpleSoft',
        'headband',
      ),
      preset(
        'opera-night',
        'Opera Night',
        'Red velvet curtains and a warm spotlight: a night at the opera.',
        'portrait of {trigger} at the opera, red velvet curtains, warm spotlight, elegant evening attire, gold balcony details, rich deep reds, dramatic lighting',
        'operaNight',
        'headbandWarm',
        'purpleHair',
      ),
      preset(
        'art-deco',
        'Art Deco',
        'Gatsby-era elegance with gold geometric lines and a deep teal mood.',
        'art deco portrait of {trigger}, 1920s Gatsby era, gold geometric frame, deep teal and champagne tones, finger waves, pearls, elegant glamour',
        'artDeco',
        'purpleTilt',
        'headbandClose',
      ),
      preset(
        'sepia-heirloom',
        'Sepia Heirloom',
        'A treasured family photograph in sepia, framed in an oval mount.',
        'antique sepia photograph of {trigger}, victorian portrait, oval cameo mount, soft focus, aged paper texture, formal pose, heirloom photo',
        'sepiaHeirloom',
        'headbandNear',
        'purpleSoft',
      ),
    ],
  },
  {
    manualId: 'fantasy-personas',
    displayName: 'Fantasy',
    emoji: '🧝',
    featured: true,
    presets: [
      preset(
        'elven-royalty',
        'Elven Royalty',
        'Woodland royalty in a soft golden glow, with sparkles drifting through the air.',
        'fantasy portrait of {trigger} as elven royalty, delicate silver circlet, flowing robes, enchanted forest glade, soft golden glow, floating sparkles, ethereal, highly detailed',
        'elvenRoyalty',
        'purpleHair',
        'headbandWarm',
      ),
      preset(
        'arcane-sorcerer',
        'Arcane Sorcerer',
        'A circle of glowing runes and violet magic: the master of the arcane.',
        'fantasy portrait of {trigger} as an arcane sorcerer, glowing violet runes circling behind, hooded robe, magical sparks, dark tower library, dramatic rim light, epic fantasy art',
        'arcaneSorcerer',
        'headband',
        'purpleSide',
      ),
      preset(
        'frost-queen',
        'Frost Queen',
        'Icy blues, falling snow and a crown of frost.',
        'fantasy portrait of {trigger} as a frost queen, crown of ice crystals, pale blue gown, falling snowflakes, frozen palace, cold blue light, glittering frost, magical',
        'frostQueen',
        'purpleSoft',
        'headbandClose',
      ),
      preset(
        'fire-mage',
        'Fire Mage',
        'Glowing embers and molten orange light from the fire you command.',
        'fantasy portrait of {trigger} as a fire mage, flames swirling around the hands, glowing embers in the air, molten orange light, dark volcanic background, intense gaze, cinematic',
        'fireMage',
        'headbandClose',
        'purpleHair',
      ),
      preset(
        'forest-druid',
        'Forest Druid',
        'Guardian of the old forest, among leaves and fireflies.',
        'fantasy portrait of {trigger} as a forest druid, leaf crown, moss-green cloak, ancient forest, fireflies, dappled green light, mystical atmosphere, detailed',
        'forestDruid',
        'purpleTilt',
        'headband',
      ),
      preset(
        'celestial-voyager',
        'Celestial Voyager',
        'Among the stars: nebula colours and starlight on your face.',
        'cosmic portrait of {trigger} as a celestial voyager, nebula in violet and pink, starfield, starlight reflecting on the face, space fantasy, luminous, dreamy',
        'celestialVoyager',
        'headbandWarm',
        'purpleSoft',
      ),
      preset(
        'dragon-knight',
        'Dragon Knight',
        'Battle-worn steel and smouldering embers after the dragon fight.',
        'fantasy portrait of {trigger} as a dragon knight, battle-worn steel armour, smoke and embers, dragon silhouette in the distance, dramatic low-key light, epic, gritty',
        'dragonKnight',
        'purpleSide',
        'headbandNear',
      ),
    ],
  },
  {
    manualId: 'fashion',
    displayName: 'Fashion',
    emoji: '👗',
    featured: true,
    presets: [
      preset(
        'cover-star',
        'Cover Star',
        'Your own magazine cover, masthead and cover lines included.',
        'fashion magazine cover of {trigger}, high-end editorial styling, beauty lighting, blush backdrop, bold masthead, cover lines, glossy print',
        'coverStar',
        'headband',
        'purpleHair',
      ),
      preset(
        'street-style',
        'Street Style',
        'City-editorial colour grade with teal shadows and warm highlights.',
        'street style photo of {trigger}, oversized coat, city street, teal and orange colour grade, candid fashion week moment, 35mm lens, gritty film grain',
        'streetStyle',
        'purpleTilt',
        'headbandWarm',
      ),
      preset(
        'golden-hour-editorial',
        'Golden Hour Editorial',
        'Warm sun, lens flare and glowing skin at the golden hour.',
        'golden hour fashion editorial of {trigger}, rooftop at sunset, warm backlight and lens flare, flowing silk outfit, glowing skin, dreamy warm tones',
        'goldenHourEditorial',
        'headbandNear',
        'purpleSide',
      ),
      preset(
        'monochrome-minimal',
        'Monochrome Minimal',
        'Clean, quiet and almost colourless on a bright white set.',
        'minimalist fashion portrait of {trigger}, all-white set, muted colours, structured white shirt, soft even light, clean lines, high-end catalogue look',
        'monochromeMinimal',
        'purpleHair',
        'headbandClose',
      ),
      preset(
        'pastel-dream',
        'Pastel Dream',
        'Soft pastels and a dreamy glow, sweet and airy.',
        'dreamy pastel portrait of {trigger}, lilac and pink tones, soft glow, sheer fabrics, airy studio, gentle sparkles, romantic fashion photography',
        'pastelDream',
        'headbandWarm',
        'purpleSoft',
      ),
      preset(
        'runway-flash',
        'Runway Flash',
        'Hard flash and deep black: straight off the runway.',
        'runway photo of {trigger}, hard camera flash, black background, couture outfit, high contrast, catwalk fashion show, sharp detail',
        'runwayFlash',
        'purpleSide',
        'headband',
      ),
      preset(
        'colour-block',
        'Colour Block',
        'Bold blocks of primary colour for a graphic, modern editorial.',
        'colour block fashion portrait of {trigger}, bold cobalt, yellow and coral background panels, graphic styling, bright studio flash, modern editorial',
        'colourBlock',
        'headbandClose',
        'purpleTilt',
      ),
    ],
  },
];

export interface DefaultExamplePhoto {
  goodOrBad: 'good' | 'bad';
  caption: string;
  /** A photo used as it is, or a picture made with a look. */
  picture: { file: string } | { recipe: PictureRecipe } | { twoPeople: [SourceName, SourceName] };
}

export const defaultExamplePhotos: DefaultExamplePhoto[] = [
  {
    goodOrBad: 'good',
    caption: 'Face the camera in even light, with only you in the photo',
    picture: { file: sources.headband.file },
  },
  {
    goodOrBad: 'good',
    caption: 'Different places, hairstyles and expressions help your AI model',
    picture: { file: sources.purpleHair.file },
  },
  {
    goodOrBad: 'good',
    caption: 'Vary your angle a little from photo to photo',
    picture: { file: sources.purpleTilt.file },
  },
  {
    goodOrBad: 'good',
    caption: 'Close-ups are fine as long as your face is sharp',
    picture: { file: sources.headbandClose.file },
  },
  {
    goodOrBad: 'bad',
    caption: 'Blurry: your face must be sharp',
    picture: { file: 'quality/blurry.jpg' },
  },
  {
    goodOrBad: 'bad',
    caption: 'Two people: only you should be in the photo',
    picture: { twoPeople: ['headbandWarm', 'purpleSide'] },
  },
  {
    goodOrBad: 'bad',
    caption: 'Face too small: come closer to the camera',
    picture: { file: 'quality/tiny-face.jpg' },
  },
  {
    goodOrBad: 'bad',
    caption: 'Sunglasses hide your eyes',
    picture: { recipe: { source: 'headbandNear', look: 'withSunglasses' } },
  },
  {
    goodOrBad: 'bad',
    caption: 'Too dark: find good, even light',
    picture: { recipe: { source: 'purpleSoft', look: 'tooDark' } },
  },
  {
    goodOrBad: 'bad',
    caption: 'No face: the photo must show you',
    picture: { file: 'not-a-face/cat.jpg' },
  },
];

export type DefaultQuizImage =
  { isAi: true; recipe: PictureRecipe } | { isAi: false; file: string };

/**
 * The quiz: nine "AI-generated" pictures first, then seven real photos, as the specification
 * numbers them (the page shuffles). Honest note: the nine are not made by an AI model; they
 * are real selfies that we retouched with sharp into the over-smooth, over-lit look of
 * generated portraits. The seven real ones are photos used as they are (only resized), all of
 * other people: a selfie of hers among the real ones would give the retouched ones away.
 */
export const defaultQuizImages: DefaultQuizImage[] = [
  { isAi: true, recipe: { source: 'headbandWarm', look: 'quizStudioSmooth' } },
  { isAi: true, recipe: { source: 'purpleSide', look: 'quizGoldenGlow', mirror: true } },
  { isAi: true, recipe: { source: 'headbandNear', look: 'quizBokehHeadshot', zoom: 1.1 } },
  { isAi: true, recipe: { source: 'purpleSoft', look: 'quizPorcelain' } },
  { isAi: true, recipe: { source: 'headband', look: 'quizCinematic', mirror: true } },
  { isAi: true, recipe: { source: 'purpleTilt', look: 'quizHdr' } },
  { isAi: true, recipe: { source: 'headbandClose', look: 'quizPastelSkin' } },
  { isAi: true, recipe: { source: 'purpleHair', look: 'quizStudioSmooth', mirror: true } },
  { isAi: true, recipe: { source: 'headbandWarm', look: 'quizBokehHeadshot', mirror: true } },
  { isAi: false, file: 'real-portraits/hopper.jpg' },
  { isAi: false, file: 'real-portraits/chu.jpg' },
  { isAi: false, file: 'real-portraits/beatty.jpg' },
  { isAi: false, file: 'real-portraits/clyburn.jpg' },
  { isAi: false, file: 'real-portraits/duckworth.jpg' },
  { isAi: false, file: 'real-portraits/garamendi.jpg' },
  { isAi: false, file: 'real-portraits/horsford.jpg' },
];
