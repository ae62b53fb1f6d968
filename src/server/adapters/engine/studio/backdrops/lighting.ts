import type { Rgb, Scene } from '../scene.ts';
import { luma, mix, scaled } from './canvas.ts';

/** How the time of day and the weather light a place: its sky, sun and the tint of its surfaces. */
export interface Lighting {
  skyTop: Rgb;
  skyMiddle: Rgb;
  skyHorizon: Rgb;
  /** The sun (or moon at night) in frame fractions, hidden behind cloud when overcast. */
  sun: { x: number; y: number; colour: Rgb; radius: number; visible: boolean };
  isNight: boolean;
  /** What daylight does to an outdoor surface's colour (see `litBy`). */
  outdoor: Rgb;
  /** The same for a room: window light by day, lamps at night. */
  indoor: Rgb;
  /** Cloud body and its lit edge. */
  cloud: Rgb;
  cloudEdge: Rgb;
  /** Share of windows, street lamps and signs switched on. */
  lightsOn: number;
  /** Veil laid over distance (aerial perspective, fog). */
  haze: Rgb;
  hazeStrength: number;
}

type TimeOfDay = Scene['time'];

const clearSkies: Record<TimeOfDay, Omit<Lighting, 'haze' | 'hazeStrength'>> = {
  day: {
    skyTop: [58, 118, 204],
    skyMiddle: [112, 166, 226],
    skyHorizon: [200, 222, 240],
    sun: { x: 0.78, y: 0.12, colour: [255, 250, 235], radius: 34, visible: true },
    isNight: false,
    outdoor: [255, 255, 252],
    indoor: [255, 254, 250],
    cloud: [246, 248, 252],
    cloudEdge: [255, 255, 255],
    lightsOn: 0.08,
  },
  golden: {
    skyTop: [92, 128, 190],
    skyMiddle: [228, 178, 140],
    skyHorizon: [255, 206, 132],
    sun: { x: 0.74, y: 0.4, colour: [255, 226, 160], radius: 40, visible: true },
    isNight: false,
    outdoor: [255, 214, 168],
    indoor: [255, 228, 196],
    cloud: [240, 196, 170],
    cloudEdge: [255, 226, 170],
    lightsOn: 0.25,
  },
  dusk: {
    skyTop: [38, 40, 96],
    skyMiddle: [150, 84, 130],
    skyHorizon: [252, 142, 86],
    sun: { x: 0.3, y: 0.5, colour: [255, 170, 110], radius: 44, visible: true },
    isNight: false,
    outdoor: [178, 134, 160],
    indoor: [226, 190, 176],
    cloud: [150, 96, 132],
    cloudEdge: [255, 160, 120],
    lightsOn: 0.6,
  },
  night: {
    skyTop: [6, 9, 24],
    skyMiddle: [14, 22, 50],
    skyHorizon: [34, 46, 82],
    sun: { x: 0.76, y: 0.13, colour: [236, 240, 255], radius: 24, visible: true },
    isNight: true,
    outdoor: [60, 76, 122],
    indoor: [150, 122, 100],
    cloud: [36, 44, 70],
    cloudEdge: [120, 132, 170],
    lightsOn: 0.78,
  },
};

/** Overcast, rain and snow skies: one flat grey lid, as bright as the hour allows. */
function underCloud(clear: Omit<Lighting, 'haze' | 'hazeStrength'>, darkness: number): Lighting {
  const brightness = (luma(clear.skyHorizon) / 255) * (1 - darkness);
  const grey = (level: number, warmth: Rgb): Rgb =>
    mix(scaled([236, 238, 242], level), warmth, 0.12);
  return {
    ...clear,
    skyTop: grey(brightness * 0.7, clear.skyTop),
    skyMiddle: grey(brightness * 0.84, clear.skyMiddle),
    skyHorizon: grey(brightness * 0.95, clear.skyHorizon),
    sun: { ...clear.sun, visible: false },
    outdoor: mix(clear.outdoor, [200, 206, 214], clear.isNight ? 0.1 : 0.55),
    cloud: grey(brightness * 0.82, clear.cloud),
    cloudEdge: grey(brightness, clear.cloudEdge),
    lightsOn: Math.min(1, clear.lightsOn + 0.15),
    haze: grey(brightness * 0.95, clear.skyHorizon),
    hazeStrength: 0.35,
  };
}

export function lightingOf(scene: Pick<Scene, 'time' | 'weather'>): Lighting {
  const clear = clearSkies[scene.time];
  switch (scene.weather) {
    case 'clear':
      return { ...clear, haze: clear.skyHorizon, hazeStrength: 0.22 };
    case 'overcast':
      return underCloud(clear, 0.1);
    case 'rain':
      return underCloud(clear, 0.3);
    case 'snow':
      return underCloud(clear, 0.05);
    case 'fog': {
      const lid = underCloud(clear, 0);
      return { ...lid, haze: mix(lid.skyHorizon, [240, 242, 244], 0.3), hazeStrength: 0.6 };
    }
  }
}
