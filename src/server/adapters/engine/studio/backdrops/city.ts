import type { Rgb } from '../scene.ts';
import { css, mix, scaled, tintedBy } from './canvas.ts';
import {
  type Painting,
  bokeh,
  cloudCover,
  clouds,
  crown,
  outdoors,
  perspectiveFloor,
  sky,
  skyline,
  veil,
  windowGrid,
} from './motifs.ts';

const white: Rgb = [255, 255, 255];

/** Downtown by day: glass towers stepping back into the haze over a paved plaza. */
export function cityDay(p: Painting): void {
  const { c, scene, light, horizon } = p;
  sky(p);
  clouds(p, 4, horizon * 0.05, horizon * 0.4);
  cloudCover(p);
  const glass = outdoors(p, tintedBy([110, 130, 156], scene.palette.base, 0.25));
  skyline(p, horizon, [c.height * 0.3, c.height * 0.55], {
    count: 7,
    wall: glass,
    haze: 0.6,
    window: 8,
  });
  skyline(p, horizon, [c.height * 0.15, c.height * 0.35], {
    count: 5,
    wall: scaled(glass, 0.85),
    haze: 0.3,
    window: 12,
  });
  for (const [x, width] of [
    [-40, 260],
    [c.width - 210, 260],
  ] as const) {
    windowGrid(
      p,
      { x, y: -10, width, height: horizon + 20 },
      { width: 34, height: 46, gap: 10 },
      {
        wall: scaled(glass, 0.6),
        dark: mix(scaled(glass, 0.8), light.skyMiddle, 0.4),
        lit: [255, 214, 150],
      },
      light.lightsOn * 0.6,
    );
  }
  for (const x of [0.3, 0.7]) {
    const trunkX = c.width * x;
    c.rect(trunkX - 5, horizon - 120, 10, 140, css(outdoors(p, [60, 50, 40])));
    crown(p, trunkX, horizon - 150, 60, {
      shade: outdoors(p, [50, 90, 50]),
      lit: outdoors(p, [120, 170, 80]),
    });
  }
  const paving = outdoors(p, [176, 172, 166]);
  perspectiveFloor(
    p,
    { near: scaled(paving, 0.8), far: mix(paving, light.haze, 0.3), seam: scaled(paving, 0.6) },
    8,
    0.5,
  );
}

/** Downtown after dark: lit towers, shop signs in the palette's accent, street lights melting into bokeh on wet tarmac. */
export function cityNight(p: Painting): void {
  const { c, scene, light, horizon } = p;
  sky(p, horizon, { stars: 30 });
  cloudCover(p);
  const wall: Rgb = tintedBy([40, 44, 60], scene.palette.base, 0.2);
  skyline(p, horizon, [c.height * 0.3, c.height * 0.6], {
    count: 8,
    wall,
    haze: 0.25,
    window: 7,
    litShare: 0.55,
  });
  veil(p, horizon * 0.5, horizon, mix(light.skyHorizon, [255, 160, 90], 0.3), 0.45);
  for (const [x, width] of [
    [-60, 280],
    [c.width - 220, 300],
  ] as const) {
    windowGrid(
      p,
      { x, y: -10, width, height: horizon + 30 },
      { width: 30, height: 40, gap: 12 },
      { wall: scaled(wall, 0.6), dark: scaled(wall, 0.4), lit: [255, 200, 130] },
      0.5,
    );
  }
  const signs: Rgb[] = [scene.palette.accent, [255, 60, 140], [60, 220, 255]];
  for (let i = 0; i < 5; i++) {
    const left = i % 2 === 0;
    const x = left ? c.between(20, 180) : c.between(c.width - 200, c.width - 60);
    const y = c.between(c.height * 0.15, horizon - 80);
    const colour = signs[i % signs.length]!;
    c.glow(x + 40, y + 20, 150, 90, colour, 0.55);
    c.rect(x, y, c.between(50, 110), c.between(24, 40), css(mix(colour, white, 0.45)), 'rx="6"');
  }
  const street = [14, 14, 20] as Rgb;
  c.ground(horizon, [
    [0, [30, 26, 34]],
    [1, street],
  ]);
  const lamps: Rgb[] = [
    [255, 196, 110],
    [255, 170, 80],
    [255, 226, 170],
  ];
  bokeh(
    p,
    30,
    { left: 0, right: c.width, top: horizon - 160, bottom: horizon - 20 },
    lamps,
    [12, 30],
    0.75,
  );
  // Lights nearer the lens than the sitter: big, faint discs across the frame.
  bokeh(
    p,
    12,
    { left: 0, right: c.width, top: c.height * 0.1, bottom: horizon },
    [...lamps, scene.palette.accent],
    [30, 60],
    0.3,
  );
  bokeh(
    p,
    14,
    { left: c.width * 0.2, right: c.width * 0.8, top: horizon - 30, bottom: horizon + 10 },
    [
      [255, 50, 40],
      [255, 250, 230],
    ],
    [8, 16],
    0.9,
  );
  // The wet street mirrors every light in long vertical smears.
  for (let i = 0; i < 16; i++) {
    const colour = i % 4 === 0 ? signs[i % signs.length]! : lamps[i % lamps.length]!;
    c.glow(
      c.between(0, c.width),
      horizon + c.between(80, 180),
      c.between(14, 30),
      c.between(90, 170),
      colour,
      0.45,
    );
  }
}

/** A roof terrace: sky, the city below beyond a glass balustrade, festoon lights overhead. */
export function rooftop(p: Painting): void {
  const { c, scene, light, horizon } = p;
  sky(p);
  clouds(p, 4, horizon * 0.05, horizon * 0.5);
  cloudCover(p);
  const towers = outdoors(p, tintedBy([100, 112, 136], scene.palette.base, 0.2));
  skyline(p, horizon + 20, [c.height * 0.08, c.height * 0.3], {
    count: 9,
    wall: towers,
    haze: 0.55,
    window: 7,
  });
  const railTop = horizon - c.height * 0.1;
  c.rect(
    0,
    railTop,
    c.width,
    horizon - railTop,
    css(mix(light.skyHorizon, white, 0.4)),
    'fill-opacity="0.25"',
  );
  const metal = outdoors(p, [70, 72, 78]);
  c.rect(0, railTop - 6, c.width, 12, css(metal));
  for (let x = 40; x < c.width; x += 240) c.rect(x, railTop, 10, horizon - railTop, css(metal));
  const deck = outdoors(p, [150, 110, 76]);
  perspectiveFloor(p, { near: scaled(deck, 0.75), far: deck, seam: scaled(deck, 0.5) }, 12, 0.5);
  const lit = light.lightsOn > 0.2;
  const bulb: Rgb = [255, 214, 150];
  for (let strand = 0; strand < 3; strand++) {
    const startY = c.height * (0.04 + strand * 0.07);
    const sag = 90 + strand * 30;
    for (let i = 0; i <= 14; i++) {
      const t = i / 14;
      const x = t * c.width;
      const y = startY + sag * 4 * t * (1 - t);
      if (i > 0) {
        const previous = startY + sag * 4 * ((i - 1) / 14) * (1 - (i - 1) / 14);
        c.line(((i - 1) / 14) * c.width, previous, x, y, [30, 30, 34], 2);
      }
      if (lit) c.glow(x, y + 10, 38, 38, bulb, 0.6 * light.lightsOn + 0.2);
      c.circle(x, y + 10, 7, css(lit ? mix(bulb, white, 0.5) : [230, 226, 214]));
    }
  }
}
