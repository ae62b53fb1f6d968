import type { RgbImage } from '../../../images/rgb-image.ts';
import sharp from 'sharp';
import { Canvas, hashText, litBy, mix, seededRandom } from './backdrops/canvas.ts';
import { cityDay, cityNight, rooftop } from './backdrops/city.ts';
import { neonGrid, space, underwater } from './backdrops/fantasy.ts';
import {
  cafe,
  castle,
  gallery,
  library,
  loft,
  office,
  stage,
  studio,
} from './backdrops/interiors.ts';
import { type Lighting, lightingOf } from './backdrops/lighting.ts';
import { type Painting, weather } from './backdrops/motifs.ts';
import {
  autumnPark,
  beach,
  desert,
  field,
  forest,
  garden,
  lake,
  mountains,
  skyPlace,
  snow,
  tropical,
} from './backdrops/nature.ts';
import type { Place, Rgb, Scene } from './scene.ts';

/**
 * The painter of the offline studio engine's backdrops: each place is drawn as an SVG (see
 * backdrops/), rendered by sharp and thrown out of focus by the scene's depth, as a portrait
 * lens would.
 */

interface PlaceStyle {
  paint: (painting: Painting) => void;
  /** The floor or horizon line, as a fraction of the height from the top. */
  horizon: number;
  /** Whether rain, snow and fog fall in it. */
  weathered: boolean;
  /** What mostly fills the frame in daylight, for the light the backdrop casts. */
  surface: (scene: Scene) => Rgb;
  /** A place that keeps its own hours (a night street stays after dark by day). */
  hour?: (time: Scene['time']) => Scene['time'];
}

const fixed = (colour: Rgb) => () => colour;

const placeStyles: Record<Place, PlaceStyle> = {
  studio: {
    paint: studio,
    horizon: 0.72,
    weathered: false,
    surface: (scene) => scene.palette.base,
  },
  office: { paint: office, horizon: 0.7, weathered: false, surface: fixed([196, 204, 214]) },
  loft: { paint: loft, horizon: 0.72, weathered: false, surface: fixed([150, 98, 76]) },
  library: { paint: library, horizon: 0.75, weathered: false, surface: fixed([104, 62, 40]) },
  cafe: { paint: cafe, horizon: 0.68, weathered: false, surface: fixed([130, 88, 58]) },
  gallery: { paint: gallery, horizon: 0.7, weathered: false, surface: fixed([214, 208, 198]) },
  stage: { paint: stage, horizon: 0.74, weathered: false, surface: fixed([110, 40, 46]) },
  'city-day': { paint: cityDay, horizon: 0.7, weathered: true, surface: fixed([150, 164, 184]) },
  'city-night': {
    paint: cityNight,
    horizon: 0.7,
    weathered: true,
    surface: fixed([70, 64, 84]),
    hour: (time) => (time === 'night' ? 'night' : 'dusk'),
  },
  rooftop: { paint: rooftop, horizon: 0.66, weathered: true, surface: fixed([150, 160, 176]) },
  beach: { paint: beach, horizon: 0.56, weathered: true, surface: fixed([150, 180, 200]) },
  tropical: { paint: tropical, horizon: 0.58, weathered: true, surface: fixed([140, 190, 196]) },
  lake: { paint: lake, horizon: 0.58, weathered: true, surface: fixed([110, 140, 160]) },
  mountains: { paint: mountains, horizon: 0.7, weathered: true, surface: fixed([130, 150, 170]) },
  forest: { paint: forest, horizon: 0.74, weathered: true, surface: fixed([110, 130, 80]) },
  'autumn-park': {
    paint: autumnPark,
    horizon: 0.7,
    weathered: true,
    surface: fixed([176, 130, 90]),
  },
  field: { paint: field, horizon: 0.62, weathered: true, surface: fixed([170, 170, 150]) },
  garden: { paint: garden, horizon: 0.68, weathered: true, surface: fixed([110, 150, 110]) },
  desert: { paint: desert, horizon: 0.6, weathered: true, surface: fixed([210, 170, 130]) },
  snow: { paint: snow, horizon: 0.64, weathered: true, surface: fixed([200, 212, 230]) },
  sky: { paint: skyPlace, horizon: 0.68, weathered: true, surface: fixed([180, 200, 226]) },
  space: {
    paint: space,
    horizon: 0.74,
    weathered: false,
    surface: fixed([40, 36, 70]),
    hour: (time) => (time === 'night' ? 'night' : 'day'),
  },
  underwater: {
    paint: underwater,
    horizon: 0.76,
    weathered: false,
    surface: fixed([40, 120, 150]),
  },
  castle: { paint: castle, horizon: 0.74, weathered: false, surface: fixed([130, 116, 100]) },
  'neon-grid': { paint: neonGrid, horizon: 0.6, weathered: false, surface: fixed([120, 40, 120]) },
};

function lightingFor(scene: Scene): Lighting {
  const style = placeStyles[scene.place];
  return lightingOf({ time: style.hour?.(scene.time) ?? scene.time, weather: scene.weather });
}

/** The backdrop as an SVG document of `width` × `height` pixels, before the depth blur. */
function backdropSvg(scene: Scene, width: number, height: number, seed: number): string {
  const style = placeStyles[scene.place];
  const canvas = new Canvas(height / width, seededRandom(seed ^ hashText(scene.place)));
  const painting: Painting = {
    c: canvas,
    scene,
    light: lightingFor(scene),
    horizon: style.horizon * canvas.height,
  };
  style.paint(painting);
  if (style.weathered) weather(painting);
  return canvas.svg(width, height);
}

export async function paintBackdrop(
  scene: Scene,
  width: number,
  height: number,
  seed: number,
): Promise<RgbImage> {
  let image = sharp(Buffer.from(backdropSvg(scene, width, height, seed))).removeAlpha();
  // A portrait lens at full depth softens the backdrop by about 1.5 % of the frame's width.
  const sigma = scene.depth * width * 0.015;
  if (sigma >= 0.3) image = image.blur(sigma);
  const { data, info } = await image.raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

/**
 * The light the backdrop casts on the person (its average colour, roughly) and where its floor
 * or horizon line lies, as a fraction of the height from the top.
 */
export function backdropLight(scene: Scene): { ambient: Rgb; horizonY: number } {
  const style = placeStyles[scene.place];
  const light = lightingFor(scene);
  const surface = style.surface(scene);
  const lit = style.weathered
    ? mix(litBy(surface, light.outdoor), light.skyMiddle, 0.3)
    : litBy(surface, light.indoor);
  const ambient = lit.map((channel) => Math.round(Math.max(0, Math.min(255, channel)))) as Rgb;
  return { ambient, horizonY: style.horizon };
}
