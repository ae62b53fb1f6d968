import type { Rgb } from '../scene.ts';
import { css, mix, n } from './canvas.ts';
import { type Painting, bokeh, lightRays, ridge, starfield, veil, wiggle } from './motifs.ts';

const white: Rgb = [255, 255, 255];

/** Deep space: stars, drifting nebulae in the palette's colours, a ringed moon, a planet's limb. */
export function space(p: Painting): void {
  const { c, scene, light, horizon } = p;
  const { base, accent } = scene.palette;
  c.fillAll(css([4, 5, 14]));
  const nebula: Rgb[] = [
    mix(accent, [120, 60, 200], 0.4),
    mix(base, [30, 120, 200], 0.5),
    [200, 60, 140],
  ];
  for (let i = 0; i < 9; i++) {
    c.glow(
      c.between(0, c.width),
      c.between(0, horizon),
      c.between(220, 480),
      c.between(140, 300),
      nebula[i % nebula.length]!,
      c.between(0.2, 0.4),
    );
  }
  starfield(p, 420, 0, horizon);
  for (let i = 0; i < 6; i++) {
    const x = c.between(0, c.width);
    const y = c.between(0, horizon * 0.9);
    c.glow(x, y, 22, 22, [220, 230, 255], 0.9);
    c.line(x - 18, y, x + 18, y, [230, 236, 255], 1.2, 'stroke-opacity="0.7"');
    c.line(x, y - 18, x, y + 18, [230, 236, 255], 1.2, 'stroke-opacity="0.7"');
  }
  const sunlit = !light.isNight;
  // A ringed moon high on one side.
  const moon = { x: c.width * 0.2, y: c.height * 0.2, r: 70 };
  const ringPath = (front: boolean) =>
    `M${n(moon.x - 150)},${n(moon.y)}A150,28 -14 0,${front ? 0 : 1} ${n(moon.x + 150)},${n(moon.y)}`;
  const ring = `stroke="${css([214, 196, 170])}" stroke-width="9" fill="none" stroke-opacity="0.7" transform="rotate(-14 ${n(moon.x)} ${n(moon.y)})"`;
  c.add(`<path d="${ringPath(false)}" ${ring}/>`);
  c.circle(
    moon.x,
    moon.y,
    moon.r,
    c.radial(
      [
        [0, [220, 180, 140]],
        [0.7, [150, 100, 80]],
        [1, [40, 26, 30]],
      ],
      0.35,
      0.3,
      0.8,
    ),
  );
  c.add(`<path d="${ringPath(true)}" ${ring}/>`);
  if (sunlit) {
    const star: [number, number] = [c.width * 0.86, c.height * 0.12];
    c.glow(star[0], star[1], 320, 320, [255, 236, 200], 0.5);
    c.glow(star[0], star[1], 60, 60, white, 1);
    c.line(
      star[0] - 260,
      star[1],
      star[0] + 260,
      star[1],
      [255, 240, 220],
      2,
      'stroke-opacity="0.6"',
    );
  }
  // The planet below: its curved limb is the horizon, with a thin bright atmosphere.
  const radius = c.width * 2.2;
  const centre: [number, number] = [c.width / 2, horizon + radius];
  const air = mix(accent, [90, 170, 255], 0.6);
  c.circle(
    centre[0],
    centre[1],
    radius + 40,
    c.radial([
      [0.94, air, 0.9],
      [0.975, air, 0.35],
      [1, air, 0],
    ]),
  );
  // By day the planet's face is in sunlight: oceans and cloud bands; by night only its limb glows.
  const face: Rgb[] = sunlit
    ? [
        [150, 190, 230],
        [60, 110, 180],
        [24, 50, 100],
      ]
    : [
        [30, 44, 76],
        [10, 16, 30],
        [6, 10, 20],
      ];
  c.circle(
    centre[0],
    centre[1],
    radius,
    c.vertical(
      [
        [0, face[0]!],
        [0.03, face[1]!],
        [0.12, face[2]!],
      ],
      horizon,
      horizon + radius,
    ),
  );
  if (sunlit) {
    const bands: string[] = [];
    for (let i = 0; i < 6; i++) {
      const y = horizon + 30 + i * c.between(35, 60);
      bands.push(`M0,${n(y + 40)}Q${n(c.width / 2)},${n(y - 40)} ${c.width},${n(y + 40)}`);
    }
    c.path(
      bands.join(''),
      'none',
      `stroke="${css([240, 246, 255])}" stroke-width="26" stroke-opacity="0.1" stroke-linecap="round"`,
    );
  }
  if (sunlit) c.glow(c.width * 0.85, horizon + 10, 420, 60, mix(air, white, 0.5), 0.6);
}

/** Under the sea: light from the surface in rays, caustics on the sand, bubbles, reef at the sides. */
export function underwater(p: Painting): void {
  const { c, scene, light, horizon } = p;
  const night = light.isNight;
  const shallow = mix(night ? [20, 60, 90] : [90, 210, 220], scene.palette.base, 0.15);
  const deep = night ? ([2, 10, 26] as Rgb) : ([6, 40, 84] as Rgb);
  c.fillToHorizon(horizon, [
    [0, shallow],
    [0.45, mix(shallow, deep, 0.6)],
    [1, deep],
  ]);
  // The surface seen from below: a bright, broken band.
  const surface = wiggle(c.random, 8, 2);
  let waves = 'M0,0';
  for (let i = 0; i <= 50; i++)
    waves += `L${n((i / 50) * c.width)},${n(40 + surface(i / 50) * 18)}`;
  waves += `L${c.width},0Z`;
  c.path(waves, css(mix(shallow, white, night ? 0.2 : 0.6)), 'fill-opacity="0.8"');
  lightRays(
    p,
    [c.width * 0.55, -120],
    9,
    mix(shallow, white, 0.6),
    night ? 0.08 : 0.35,
    c.height * 1.1,
  );
  const sand = mix([196, 180, 140], deep, night ? 0.7 : 0.35);
  c.ground(horizon, [
    [0, mix(sand, deep, 0.4)],
    [1, sand],
  ]);
  veil(p, horizon + 80, horizon - 40, mix(shallow, deep, 0.7), 0.7);
  // Caustics: a loose net of bright threads on the sand.
  const threads: string[] = [];
  for (let i = 0; i < 70; i++) {
    const x = c.between(-40, c.width);
    const y = c.between(horizon + 10, c.height);
    const size = 20 + ((y - horizon) / (c.height - horizon)) * 50;
    threads.push(
      `M${n(x)},${n(y)}q${n(size * 0.5)},${n(-size * 0.3)} ${n(size)},0t${n(size)},${n(size * 0.15)}`,
    );
  }
  c.path(
    threads.join(''),
    'none',
    `stroke="${css(mix(shallow, white, 0.7))}" stroke-width="3" stroke-opacity="${night ? 0.1 : 0.4}" stroke-linecap="round"`,
  );
  const coral: Rgb[] = [
    [220, 110, 90],
    [240, 160, 80],
    mix(scene.palette.accent, [200, 80, 140], 0.5),
  ];
  for (const side of [0, 1]) {
    for (let i = 0; i < 7; i++) {
      const x = side ? c.width - c.between(0, 240) : c.between(0, 240);
      const baseY = horizon + c.between(0, 140);
      const height = c.between(80, 220);
      const colour = mix(coral[i % coral.length]!, deep, night ? 0.75 : 0.3);
      c.path(
        `M${n(x - 12)},${n(baseY)}Q${n(x + c.between(-40, 40))},${n(baseY - height * 0.6)} ${n(x + c.between(-30, 30))},${n(baseY - height)}Q${n(x + 20)},${n(baseY - height * 0.5)} ${n(x + 12)},${n(baseY)}Z`,
        css(colour),
      );
      c.ellipse(x, baseY - height, 22, 18, css(mix(colour, white, 0.15)));
    }
  }
  const bubble = c.radial([
    [0, white, 0.05],
    [0.75, white, 0.15],
    [0.92, white, 0.7],
    [1, white, 0],
  ]);
  for (let i = 0; i < 40; i++) {
    const r = c.between(3, 15);
    c.circle(c.between(0, c.width), c.between(60, horizon), r, bubble);
  }
  if (night) {
    bokeh(
      p,
      40,
      { left: 0, right: c.width, top: 0, bottom: c.height },
      [[80, 240, 220], scene.palette.accent],
      [3, 8],
      0.8,
    );
  }
}

/** Synthwave: a striped sun setting behind neon-edged peaks, a glowing grid running to it. */
export function neonGrid(p: Painting): void {
  const { c, scene, light, horizon } = p;
  const { accent } = scene.palette;
  const night = light.isNight;
  const neon = mix(accent, [255, 60, 200], 0.4);
  const cyan: Rgb = [60, 230, 255];
  c.rect(
    0,
    0,
    c.width,
    horizon,
    c.vertical(
      [
        [0, night ? [8, 2, 26] : [40, 10, 70]],
        [0.6, night ? [60, 10, 90] : [140, 30, 120]],
        [1, night ? [160, 30, 120] : [255, 110, 120]],
      ],
      0,
      horizon,
    ),
  );
  starfield(p, night ? 160 : 50, 0, horizon * 0.6);
  const sun = { x: c.width / 2, y: horizon - 90, r: 240 };
  const stripes = c.define(
    (id) =>
      `<mask id="${id}"><rect x="0" y="0" width="${c.width}" height="${n(c.height)}" fill="white"/>${Array.from(
        { length: 7 },
        (_, i) => {
          const y = sun.y + i * 34;
          return `<rect x="0" y="${n(y)}" width="${c.width}" height="${n(4 + i * 2.6)}" fill="black"/>`;
        },
      ).join('')}</mask>`,
  );
  c.glow(sun.x, sun.y, sun.r * 1.8, sun.r * 1.5, [255, 80, 160], 0.45);
  c.circle(
    sun.x,
    sun.y,
    sun.r,
    c.vertical(
      [
        [0, [255, 236, 120]],
        [0.5, [255, 140, 90]],
        [1, [255, 40, 150]],
      ],
      sun.y - sun.r,
      sun.y + sun.r,
    ),
    `mask="url(#${stripes})"`,
  );
  const peaks = ridge(p, horizon, 110, 2.5, css([20, 6, 40]), { sharpness: 0.9, octaves: 2 });
  let edge = '';
  for (let i = 0; i <= 80; i++)
    edge += `${i ? 'L' : 'M'}${n((i / 80) * c.width)},${n(peaks((i / 80) * c.width))}`;
  c.path(edge, 'none', `stroke="${css(cyan)}" stroke-width="3" stroke-opacity="0.8"`);
  c.ground(horizon, [
    [0, [40, 6, 60]],
    [1, [8, 2, 20]],
  ]);
  const grid: string[] = [];
  const vanishingX = c.width / 2;
  for (let i = -16; i <= 16; i++) {
    grid.push(`M${n(vanishingX + i * 18)},${n(horizon)}L${n(vanishingX + i * 150)},${n(c.height)}`);
  }
  for (let k = 1; k < 16; k++) {
    const y = horizon + (c.height - horizon) * (k / 15) ** 2.2;
    grid.push(`M0,${n(y)}H${c.width}`);
  }
  const lines = grid.join('');
  c.path(lines, 'none', `stroke="${css(neon)}" stroke-width="10" stroke-opacity="0.25"`);
  c.path(lines, 'none', `stroke="${css(mix(neon, white, 0.35))}" stroke-width="2.5"`);
  c.glow(c.width / 2, horizon, c.width * 0.7, 60, neon, 0.6);
  veil(p, horizon + 200, horizon, [255, 80, 180], 0.3);
}
