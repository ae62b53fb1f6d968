import { z } from 'zod';

/**
 * What the offline studio engine puts the user into: a scene described in data. A preset keeps
 * one (catalog), a custom prompt is read into one (prompt.ts); the painter (backdrops.ts) draws
 * its backdrop, the compositor (compose.ts) places and relights the person in it, and the
 * treatments (treatments.ts) give the whole picture its grade and style.
 */

/** sRGB, 0-255 per channel. */
const rgb = z.tuple([
  z.number().min(0).max(255),
  z.number().min(0).max(255),
  z.number().min(0).max(255),
]);
export type Rgb = z.infer<typeof rgb>;

/** An RGB picture, 3 bytes a pixel, rows top to bottom. */
export interface RgbImage {
  data: Buffer;
  width: number;
  height: number;
}

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

/** A neutral studio portrait: what a prompt the engine cannot read gets. */
export const neutralScene: Scene = {
  place: 'studio',
  time: 'day',
  weather: 'clear',
  palette: { base: [150, 156, 166], accent: [216, 220, 226] },
  light: { direction: 'left', colour: [255, 246, 236], strength: 0.45 },
  rim: null,
  framing: 'portrait',
  depth: 0.3,
  grade: { saturation: 1, contrast: 1.05, brightness: 1, warmth: 0.05 },
  treatment: 'none',
  duotone: null,
  grain: 0.05,
  vignette: 0.25,
  clothing: null,
};

/** A scene from a partial one (a preset's data, a prompt's reading): the rest stays neutral. */
export function sceneWith(parts: Partial<Scene>): Scene {
  return sceneSchema.parse({ ...neutralScene, ...parts });
}
