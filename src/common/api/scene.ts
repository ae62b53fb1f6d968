import { z } from 'zod';

/**
 * The offline studio engine's scene, as data: a preset may keep some of its parts (catalog data,
 * set by an operator or the default content), the engine reads the rest from the prompt. Its
 * shape is shared by the admin API and the engine (src/server/adapters/engine/studio/scene.ts).
 */

/** sRGB, 0-255 per channel. */
const rgb = z.tuple([
  z.number().min(0).max(255),
  z.number().min(0).max(255),
  z.number().min(0).max(255),
]);
export type Rgb = z.infer<typeof rgb>;

export const places = [
  'studio',
  'office',
  'loft',
  'library',
  'cafe',
  'gallery',
  'stage',
  'city-day',
  'city-night',
  'rooftop',
  'beach',
  'tropical',
  'lake',
  'mountains',
  'forest',
  'autumn-park',
  'field',
  'garden',
  'desert',
  'snow',
  'sky',
  'space',
  'underwater',
  'castle',
  'neon-grid',
] as const;
export type Place = (typeof places)[number];

export const timesOfDay = ['day', 'golden', 'dusk', 'night'] as const;
export const weathers = ['clear', 'overcast', 'fog', 'rain', 'snow'] as const;
/** From a head-and-shoulders close-up to the person down to the waist. */
export const framings = ['headshot', 'portrait', 'half-body'] as const;
export type Framing = (typeof framings)[number];
export const lightDirections = ['left', 'right', 'front', 'top'] as const;
export const treatments = [
  'none',
  'mono',
  'sepia',
  'duotone',
  'painterly',
  'film',
  'neon',
  'pop-art',
  'sketch',
  'vhs',
] as const;
export type Treatment = (typeof treatments)[number];

export const sceneSchema = z.object({
  place: z.enum(places),
  time: z.enum(timesOfDay),
  weather: z.enum(weathers),
  /** The backdrop's colours: its main colour and an accent (lights, details). */
  palette: z.object({ base: rgb, accent: rgb }),
  /**
   * The key light: where it comes from (as seen in the picture), its colour and how strong it is
   * against the scene's ambient light (0 = flat, 1 = hard one-sided light).
   */
  light: z.object({
    direction: z.enum(lightDirections),
    colour: rgb,
    strength: z.number().min(0).max(1),
  }),
  /** A coloured edge light from behind (neon, sunset), or none. */
  rim: z.object({ colour: rgb, strength: z.number().min(0).max(1) }).nullable(),
  framing: z.enum(framings),
  /** How far the backdrop is thrown out of focus, 0 (sharp) to 1 (very soft). */
  depth: z.number().min(0).max(1),
  /** The whole picture's colour grade; 1 (0 for warmth) leaves it as it is. */
  grade: z.object({
    saturation: z.number().min(0).max(2),
    contrast: z.number().min(0.5).max(1.6),
    brightness: z.number().min(0.5).max(1.5),
    /** -1 cool (blue) to 1 warm (amber). */
    warmth: z.number().min(-1).max(1),
  }),
  treatment: z.enum(treatments),
  /** The two tones (shadows, highlights) of the duotone treatment. */
  duotone: z.tuple([rgb, rgb]).nullable(),
  grain: z.number().min(0).max(1),
  vignette: z.number().min(0).max(1),
  /** A colour the clothes are dyed towards ("red summer dress"), or none. */
  clothing: rgb.nullable(),
});
export type Scene = z.infer<typeof sceneSchema>;

/** What a preset says of its scene: any top-level part; the rest is read from its prompt. */
export const presetSceneSchema = sceneSchema.partial();
export type PresetScene = z.infer<typeof presetSceneSchema>;
