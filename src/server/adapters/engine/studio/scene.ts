import { type Scene, sceneSchema } from '../../../../common/api/scene.ts';

/**
 * What the offline studio engine puts the user into: a scene described in data. A preset keeps
 * one (catalog), a custom prompt is read into one (prompt.ts); the painter (backdrops.ts) draws
 * its backdrop, the compositor (compose.ts) places and relights the person in it, and the
 * treatments (treatments.ts) give the whole picture its grade and style.
 */

// The scene's shape is catalog data shared with the admin API; the engine's modules read it here.
export * from '../../../../common/api/scene.ts';

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
