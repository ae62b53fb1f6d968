import type { Rgb } from '../scene.ts';
import { css, mix, n, scaled, tintedBy } from './canvas.ts';
import {
  type Painting,
  bokeh,
  indoors,
  lightRays,
  masonry,
  perspectiveFloor,
  sideFalloff,
  sky,
  skyline,
  veil,
} from './motifs.ts';

const white: Rgb = [255, 255, 255];
const black: Rgb = [0, 0, 0];

/** Seamless paper in the palette's colour: a soft pool of light behind the sitter, low-key at night. */
export function studio(p: Painting): void {
  const { c, scene, light } = p;
  const paper = light.isNight ? scaled(scene.palette.base, 0.42) : scene.palette.base;
  const sweep = p.horizon / c.height;
  c.fillAll(
    c.vertical([
      [0, scaled(paper, 0.7)],
      [sweep - 0.12, scaled(paper, 0.95)],
      [sweep, mix(paper, white, 0.1)],
      [1, scaled(paper, 0.82)],
    ]),
  );
  c.glow(
    c.width / 2,
    c.height * 0.45,
    c.width * 0.7,
    c.height * 0.42,
    mix(scene.palette.accent, white, 0.4),
    light.isNight ? 0.55 : 0.42,
  );
  sideFalloff(p, light.isNight ? 0.6 : 0.32);
}

/** A bright open-plan floor: glass from floor to ceiling and the city beyond it. */
export function office(p: Painting): void {
  const { c, scene, light, horizon } = p;
  const ceiling = c.height * 0.1;
  sky(p, horizon, { stars: 40 });
  skyline(p, horizon, [c.height * 0.25, c.height * 0.5], {
    count: 7,
    wall: [120, 134, 156],
    haze: 0.55,
    window: 9,
  });
  skyline(p, horizon, [c.height * 0.1, c.height * 0.3], {
    count: 5,
    wall: [96, 108, 128],
    haze: 0.3,
    window: 12,
  });
  // Glass: a cool sheen, strongest at the top where it reflects the ceiling lights.
  veil(p, horizon, ceiling, light.isNight ? [40, 50, 70] : [235, 242, 250], 0.35);
  const frame = css(indoors(p, tintedBy([70, 74, 82], scene.palette.base, 0.3)));
  for (let x = -40; x < c.width + 40; x += 210) c.rect(x, ceiling, 14, horizon - ceiling, frame);
  c.rect(0, horizon - c.height * 0.2, c.width, 8, frame);
  const ceilingColour = indoors(p, [232, 232, 230]);
  c.rect(
    0,
    0,
    c.width,
    ceiling,
    c.vertical(
      [
        [0, scaled(ceilingColour, 0.85)],
        [1, ceilingColour],
      ],
      0,
      ceiling,
    ),
  );
  for (let x = 60; x < c.width; x += 240)
    c.rect(x, ceiling * 0.45, 140, 10, css(mix(scene.palette.accent, white, 0.8)));
  perspectiveFloor(
    p,
    { near: indoors(p, [150, 150, 152]), far: indoors(p, [205, 206, 208]), seam: black },
    6,
    0.08,
  );
  // The glass wall mirrored in the polished floor.
  veil(p, c.height, horizon, indoors(p, light.isNight ? [60, 70, 100] : [230, 238, 248]), 0.4);
  if (light.isNight) {
    bokeh(
      p,
      14,
      { left: 0, right: c.width, top: ceiling, bottom: horizon },
      [[255, 214, 160], scene.palette.accent],
      [10, 22],
      0.5,
    );
  }
}

/** Warehouse loft: brick, a tall steel-framed window, warm bulbs, boards. */
export function loft(p: Painting): void {
  const { c, scene, light, horizon } = p;
  const brick = indoors(p, tintedBy([150, 78, 56], scene.palette.base, 0.25));
  masonry(
    p,
    { top: 0, bottom: horizon },
    { width: 64, height: 26, joint: 4 },
    indoors(p, [180, 168, 150]),
    [brick, scaled(brick, 0.85), mix(brick, [190, 120, 90], 0.3), scaled(brick, 0.7)],
  );
  const window = {
    x: c.width * 0.06,
    y: c.height * 0.1,
    width: c.width * 0.34,
    height: horizon - c.height * 0.22,
  };
  const outside = light.isNight ? [40, 52, 86] : mix(light.skyHorizon, white, 0.5);
  c.rect(window.x, window.y, window.width, window.height, css(outside as Rgb));
  c.glow(
    window.x + window.width / 2,
    window.y + window.height / 2,
    window.width,
    window.height * 0.8,
    outside as Rgb,
    light.isNight ? 0.2 : 0.5,
  );
  const steel = css(indoors(p, [40, 40, 42]));
  for (let i = 0; i <= 3; i++)
    c.rect(window.x + (window.width * i) / 3 - 5, window.y, 10, window.height, steel);
  for (let i = 0; i <= 5; i++)
    c.rect(window.x, window.y + (window.height * i) / 5 - 5, window.width, 10, steel);
  if (!light.isNight)
    lightRays(
      p,
      [window.x + window.width * 0.2, window.y],
      5,
      light.sun.colour,
      0.12,
      c.height * 0.8,
    );
  sideFalloff(p, 0.35);
  const wood = indoors(p, [150, 100, 64]);
  perspectiveFloor(p, { near: scaled(wood, 0.75), far: wood, seam: scaled(wood, 0.4) }, 9, 0.5);
  for (const x of [0.62, 0.8, 0.93]) {
    const bulbY = c.height * c.between(0.16, 0.3);
    c.line(c.width * x, 0, c.width * x, bulbY, [30, 30, 30], 3);
    c.glow(c.width * x, bulbY + 10, 110, 110, [255, 190, 110], light.isNight ? 0.75 : 0.45);
    c.circle(c.width * x, bulbY + 10, 11, css([255, 236, 190]));
  }
  if (light.isNight) veil(p, 0, c.height, [20, 12, 6], 0.3);
}

const spineColours: Rgb[] = [
  [120, 30, 34],
  [44, 70, 52],
  [38, 48, 84],
  [132, 92, 52],
  [86, 50, 34],
  [168, 140, 96],
  [60, 40, 56],
  [150, 64, 40],
];

/** Floor-to-ceiling shelves of leather and cloth spines in warm lamplight. */
export function library(p: Painting): void {
  const { c, scene, light, horizon } = p;
  const wood = indoors(p, tintedBy([78, 48, 28], scene.palette.base, 0.2));
  c.rect(0, 0, c.width, horizon, css(scaled(wood, 0.5)));
  const shelfHeight = 132;
  const spines = spineColours.map((colour) =>
    indoors(p, tintedBy(colour, scene.palette.accent, 0.15)),
  );
  const byColour = spines.map(() => [] as string[]);
  const bands: string[] = [];
  for (let top = -30; top < horizon; top += shelfHeight) {
    let x = c.between(-20, 0);
    while (x < c.width) {
      const width = c.between(14, 30);
      const height = shelfHeight * c.between(0.68, 0.9);
      const y = top + shelfHeight - 14 - height;
      if (c.random() < 0.06) {
        x += c.between(20, 50);
        continue;
      }
      byColour[Math.floor(c.random() * spines.length)]!.push(
        `M${n(x)},${n(y)}h${n(width - 2)}v${n(height)}h${n(-width + 2)}Z`,
      );
      if (c.random() < 0.6) {
        for (const at of [0.14, 0.8])
          bands.push(`M${n(x + 2)},${n(y + height * at)}h${n(width - 6)}v3h${n(-width + 6)}Z`);
      }
      x += width;
    }
    c.rect(0, top + shelfHeight - 14, c.width, 14, css(wood));
    c.rect(0, top + shelfHeight - 14, c.width, 3, css(mix(wood, white, 0.2)));
  }
  byColour.forEach((books, i) => c.path(books.join(''), css(spines[i]!)));
  c.path(bands.join(''), css(indoors(p, [206, 170, 96])), 'fill-opacity="0.75"');
  // Each shelf's top throws a shadow down the spines below it.
  for (let top = -30; top < horizon; top += shelfHeight) {
    veil(p, top + shelfHeight + 36, top + shelfHeight, black, 0.55);
  }
  c.glow(
    c.width * 0.5,
    c.height * 0.3,
    c.width * 0.8,
    c.height * 0.45,
    [255, 196, 120],
    light.isNight ? 0.35 : 0.25,
  );
  sideFalloff(p, 0.55);
  const carpet = indoors(p, tintedBy([110, 40, 36], scene.palette.base, 0.3));
  c.ground(horizon, [
    [0, scaled(carpet, 0.7)],
    [1, carpet],
  ]);
  c.rect(0, horizon - 6, c.width, 12, css(scaled(wood, 0.7)));
  if (light.isNight) {
    veil(p, 0, c.height, [12, 6, 2], 0.35);
    c.glow(c.width * 0.85, c.height * 0.45, 260, 260, [255, 180, 90], 0.5);
  }
}

/** Coffee house: wood, a window, and a wall of warm out-of-focus lights. */
export function cafe(p: Painting): void {
  const { c, scene, light, horizon } = p;
  const wall = indoors(p, tintedBy([96, 64, 44], scene.palette.base, 0.3));
  c.fillToHorizon(horizon, [
    [0, scaled(wall, 0.55)],
    [0.7, wall],
  ]);
  const window = {
    x: c.width * 0.58,
    y: c.height * 0.08,
    width: c.width * 0.5,
    height: horizon - c.height * 0.16,
  };
  const outside = light.isNight
    ? mix(light.skyHorizon, [60, 50, 70], 0.5)
    : mix(light.skyHorizon, white, 0.6);
  c.rect(window.x, window.y, window.width, window.height, css(outside));
  c.rect(window.x + window.width * 0.5, window.y, 10, window.height, css(scaled(wall, 0.5)));
  c.rect(window.x, window.y + window.height * 0.55, window.width, 10, css(scaled(wall, 0.5)));
  c.glow(
    window.x + window.width / 2,
    c.height * 0.35,
    window.width,
    window.height * 0.6,
    outside,
    light.isNight ? 0.15 : 0.45,
  );
  const warm: Rgb[] = [
    [255, 190, 110],
    [255, 160, 80],
    [255, 214, 150],
    mix(scene.palette.accent, [255, 180, 100], 0.5),
  ];
  bokeh(
    p,
    light.isNight ? 46 : 30,
    { left: -20, right: c.width + 20, top: c.height * 0.02, bottom: horizon * 0.9 },
    warm,
    [16, 38],
    light.isNight ? 0.75 : 0.55,
  );
  for (const x of [0.18, 0.42]) {
    const lampY = c.height * 0.2;
    c.line(c.width * x, 0, c.width * x, lampY - 30, [24, 18, 14], 3);
    c.path(
      `M${n(c.width * x - 50)},${n(lampY)}L${n(c.width * x - 16)},${n(lampY - 34)}L${n(c.width * x + 16)},${n(lampY - 34)}L${n(c.width * x + 50)},${n(lampY)}Z`,
      css([34, 26, 20]),
    );
    c.glow(c.width * x, lampY + 40, 160, 110, [255, 196, 120], 0.6);
  }
  sideFalloff(p, 0.3);
  // The counter top: grain running along the boards, a lit front edge.
  const wood = indoors(p, [128, 80, 46]);
  c.ground(horizon, [
    [0, mix(wood, white, 0.15)],
    [0.05, wood],
    [1, scaled(wood, 0.55)],
  ]);
  const grain: string[] = [];
  for (let i = 0; i < 40; i++) {
    const y = c.between(horizon + 10, c.height);
    grain.push(
      `M0,${n(y)}C${n(c.width * 0.3)},${n(y + c.between(-8, 8))} ${n(c.width * 0.7)},${n(y + c.between(-8, 8))} ${c.width},${n(y + c.between(-6, 6))}`,
    );
  }
  c.path(
    grain.join(''),
    'none',
    `stroke="${css(scaled(wood, 0.6))}" stroke-width="2" stroke-opacity="0.5"`,
  );
}

/** White cube: framed works under track spots, pale boards. */
export function gallery(p: Painting): void {
  const { c, scene, light, horizon } = p;
  const wall = indoors(p, tintedBy([238, 236, 232], scene.palette.base, 0.2));
  c.fillToHorizon(horizon, [
    [0, scaled(wall, 0.85)],
    [1, wall],
  ]);
  c.rect(0, 0, c.width, 26, css(scaled(wall, 0.7)));
  const works: { x: number; y: number; width: number; height: number }[] = [
    { x: -0.06, y: 0.2, width: 0.28, height: 0.3 },
    { x: 0.36, y: 0.1, width: 0.28, height: 0.2 },
    { x: 0.76, y: 0.16, width: 0.3, height: 0.38 },
  ];
  for (const work of works) {
    const x = work.x * c.width;
    const y = work.y * c.height;
    const width = work.width * c.width;
    const height = work.height * c.height;
    c.glow(
      x + width / 2,
      y + height * 0.2,
      width * 0.9,
      height * 1.1,
      [255, 244, 220],
      light.isNight ? 0.7 : 0.45,
    );
    c.rect(x + 8, y + 10, width, height, css([0, 0, 0]), 'fill-opacity="0.12"');
    c.rect(x - 10, y - 10, width + 20, height + 20, css(indoors(p, [40, 36, 32])));
    abstractPainting(p, x, y, width, height);
  }
  sideFalloff(p, 0.18);
  if (light.isNight) veil(p, 0, c.height, [10, 8, 6], 0.35);
  const boards = indoors(p, [200, 180, 150]);
  perspectiveFloor(
    p,
    { near: scaled(boards, 0.8), far: boards, seam: scaled(boards, 0.6) },
    10,
    0.4,
  );
  veil(p, c.height, horizon, wall, 0.25);
}

function abstractPainting(p: Painting, x: number, y: number, width: number, height: number): void {
  const { c, scene } = p;
  const { base, accent } = scene.palette;
  const ground = indoors(p, mix([236, 228, 214], base, 0.2));
  c.rect(x, y, width, height, css(ground));
  const colours = [accent, base, [34, 52, 90] as Rgb, [204, 90, 50] as Rgb, [226, 186, 80] as Rgb];
  for (let i = 0; i < 4; i++) {
    const colour = indoors(p, colours[Math.floor(c.random() * colours.length)]!);
    const w = width * c.between(0.25, 0.6);
    const h = height * c.between(0.2, 0.55);
    const at = [x + c.between(0, width - w), y + c.between(0, height - h)] as const;
    if (c.random() < 0.5) c.rect(at[0], at[1], w, h, css(colour), 'fill-opacity="0.85"');
    else c.ellipse(at[0] + w / 2, at[1] + h / 2, w / 2, h / 2, css(colour), 'fill-opacity="0.85"');
  }
}

/** Velvet curtains, a spotlight cut through haze, a gleaming stage floor. */
export function stage(p: Painting): void {
  const { c, scene, light, horizon } = p;
  const houseLights = light.isNight ? 0.05 : 0.6;
  const back = scaled(tintedBy([40, 30, 40], scene.palette.base, 0.2), 0.5 + houseLights);
  c.fillToHorizon(horizon, [
    [0, scaled(back, 0.5)],
    [1, back],
  ]);
  const beam = mix(scene.palette.accent, [255, 236, 206], 0.75);
  const spotX = c.width / 2;
  // Nested cones, each faint: the beam is brightest at its core and soft at its edges.
  const haze = c.vertical(
    [
      [0, beam, 0.14],
      [1, beam, 0.05],
    ],
    0,
    horizon,
  );
  for (let k = 0; k < 5; k++) {
    const spread = 1 - k * 0.17;
    c.polygon(
      [
        [spotX - 40 * spread, -10],
        [spotX + 40 * spread, -10],
        [spotX + 330 * spread, horizon + 40],
        [spotX - 330 * spread, horizon + 40],
      ],
      haze,
    );
  }
  c.glow(spotX, 0, 200, 260, beam, 0.5);
  const velvet = tintedBy([150, 18, 30], scene.palette.base, 0.2);
  curtain(p, 0, c.width * 0.24, velvet, houseLights);
  curtain(p, c.width * 0.76, c.width * 0.24, velvet, houseLights);
  curtain(p, 0, c.width, velvet, houseLights, c.height * 0.1);
  const boards = scaled([120, 82, 50], 0.35 + houseLights);
  c.ground(horizon, [
    [0, boards],
    [1, scaled(boards, 0.5)],
  ]);
  c.ellipse(
    spotX,
    horizon + 70,
    360,
    90,
    c.radial([
      [0, beam, 0.85],
      [0.6, beam, 0.35],
      [1, beam, 0],
    ]),
  );
  c.rect(0, horizon - 8, c.width, 10, css(scaled(boards, 0.6)));
}

/** A curtain hung from the top down to the floor (or to `drop` for the valance), in folds. */
function curtain(
  p: Painting,
  x: number,
  width: number,
  velvet: Rgb,
  brightness: number,
  drop = p.horizon + 10,
): void {
  const { c } = p;
  const folds = Math.max(3, Math.round(width / 46));
  const stops: [number, Rgb][] = [];
  for (let i = 0; i < folds; i++) {
    stops.push([i / folds, scaled(velvet, 0.25 + brightness * 0.3)]);
    stops.push([(i + 0.45) / folds, scaled(velvet, 0.75 + brightness * 0.5)]);
  }
  stops.push([1, scaled(velvet, 0.25)]);
  c.rect(x, 0, width, drop, c.linear(stops, x, 0, x + width, 0));
  c.rect(
    x,
    drop - 30,
    width,
    30,
    c.vertical(
      [
        [0, black, 0],
        [1, black, 0.3],
      ],
      drop - 30,
      drop,
    ),
  );
}

/** A great hall: stone, tall lancet windows, hanging banners, torches, a carpet to the throne. */
export function castle(p: Painting): void {
  const { c, scene, light, horizon } = p;
  const stone = indoors(p, tintedBy([138, 130, 118], scene.palette.base, 0.15));
  masonry(
    p,
    { top: 0, bottom: horizon },
    { width: 110, height: 56, joint: 5 },
    scaled(stone, 0.6),
    [stone, scaled(stone, 0.88), mix(stone, [160, 150, 130], 0.3), scaled(stone, 0.78)],
  );
  for (const x of [0.18, 0.82]) {
    const cx = c.width * x;
    const top = c.height * 0.12;
    const bottom = horizon - c.height * 0.14;
    const half = 62;
    const arch = `M${n(cx - half)},${n(bottom)}V${n(top + half * 1.6)}Q${n(cx - half)},${n(top)} ${n(cx)},${n(top - 10)}Q${n(cx + half)},${n(top)} ${n(cx + half)},${n(top + half * 1.6)}V${n(bottom)}Z`;
    c.path(arch, 'none', `stroke="${css(scaled(stone, 0.55))}" stroke-width="36"`);
    c.path(
      arch,
      c.vertical(
        [
          [0, light.skyTop],
          [1, mix(light.skyHorizon, white, light.isNight ? 0 : 0.4)],
        ],
        top,
        bottom,
      ),
    );
    c.line(cx, top, cx, bottom, scaled(stone, 0.4), 6);
    if (!light.isNight)
      c.glow(cx, (top + bottom) / 2, 220, 340, mix(light.sun.colour, white, 0.3), 0.35);
  }
  // Heraldic red unless the palette's accent is a colour of its own.
  const accent = scene.palette.accent;
  const colourfulness = Math.min(1, (Math.max(...accent) - Math.min(...accent)) / 90);
  const banner = mix([140, 26, 36], scaled(accent, 0.8), colourfulness);
  for (const x of [0.38, 0.62]) {
    const cx = c.width * x;
    const bottom = c.height * 0.5;
    c.path(
      `M${n(cx - 46)},${n(c.height * 0.06)}H${n(cx + 46)}V${n(bottom)}L${n(cx)},${n(bottom - 40)}L${n(cx - 46)},${n(bottom)}Z`,
      c.linear(
        [
          [0, scaled(indoors(p, banner), 0.6)],
          [0.5, indoors(p, banner)],
          [1, scaled(indoors(p, banner), 0.6)],
        ],
        cx - 46,
        0,
        cx + 46,
        0,
      ),
    );
    c.circle(cx, c.height * 0.22, 22, css(indoors(p, [220, 180, 90])), 'fill-opacity="0.9"');
    c.rect(cx - 56, c.height * 0.06 - 6, 112, 10, css(indoors(p, [80, 60, 40])));
  }
  for (const x of [0.05, 0.3, 0.7, 0.95]) {
    const cx = c.width * x;
    const y = c.height * 0.42;
    c.glow(cx, y, 150, 170, [255, 150, 60], light.isNight ? 0.7 : 0.3);
    c.ellipse(cx, y - 8, 9, 20, css([255, 214, 140]));
    c.rect(cx - 6, y + 8, 12, 40, css([50, 36, 26]));
  }
  sideFalloff(p, 0.4);
  const flags = indoors(p, [120, 112, 100]);
  perspectiveFloor(p, { near: scaled(flags, 0.7), far: flags, seam: scaled(flags, 0.5) }, 6, 0.6);
  const carpet = indoors(p, tintedBy([140, 24, 32], scene.palette.accent, 0.15));
  c.receding(horizon, [0.44, 0.56], [0.22, 0.78], { far: scaled(carpet, 0.7), near: carpet });
  if (light.isNight) veil(p, 0, c.height, [10, 6, 4], 0.3);
}
