import type { Rgb } from '../scene.ts';
import { css, mix, n, scaled, tintedBy } from './canvas.ts';
import {
  type Painting,
  bokeh,
  cloudCover,
  clouds,
  crown,
  lightRays,
  outdoors,
  ridge,
  sky,
  veil,
  wiggle,
} from './motifs.ts';

const white: Rgb = [255, 255, 255];

/** An outdoor colour, pulled towards the palette's base by `amount` of its hue. */
function land(p: Painting, colour: Rgb, amount = 0.2): Rgb {
  return outdoors(p, tintedBy(colour, p.scene.palette.base, amount));
}

/** Where the sun (or moon) sits on the frame, as painted by `sky`. */
function sunAt(p: Painting): [number, number] {
  const { c, light } = p;
  return [
    light.sun.x * c.width,
    Math.min(light.sun.y * c.height, p.horizon - light.sun.radius * 0.4),
  ];
}

/** Open sky above a horizon: the light of the hour, a few clouds, a lid of them when overcast. */
function openSky(p: Painting, cloudCount: number): void {
  sky(p);
  clouds(p, cloudCount, p.horizon * 0.08, p.horizon * 0.7);
  cloudCover(p);
}

/** Open water from the horizon down to `shore`: deeper colour far off, the sun's glitter path. */
function sea(p: Painting, shore: number, colours: { far: Rgb; near: Rgb }): void {
  const { c, light, horizon } = p;
  const far = mix(outdoors(p, colours.far), light.skyHorizon, 0.25);
  c.rect(
    0,
    horizon,
    c.width,
    shore - horizon,
    c.vertical(
      [
        [0, far],
        [1, outdoors(p, colours.near)],
      ],
      horizon,
      shore,
    ),
  );
  const [sunX] = sunAt(p);
  const glitter = mix(light.sun.colour, white, 0.5);
  const sparkle = light.sun.visible ? 1 : 0.35;
  c.ellipse(
    sunX,
    horizon + 20,
    260,
    40,
    c.radial([
      [0, glitter, 0.5 * sparkle],
      [1, glitter, 0],
    ]),
  );
  const glints: string[] = [];
  for (let i = 0; i < 220; i++) {
    const depth = c.random() ** 1.6;
    const y = horizon + 3 + depth * (shore - horizon - 6);
    const spread = 40 + depth * 240;
    const x = sunX + (c.random() + c.random() - 1) * spread;
    const length = 4 + depth * 26;
    glints.push(`M${n(x - length / 2)},${n(y)}h${n(length)}`);
  }
  c.path(
    glints.join(''),
    'none',
    `stroke="${css(glitter)}" stroke-width="2.4" stroke-linecap="round" stroke-opacity="${n(0.75 * sparkle)}"`,
  );
  const swells: string[] = [];
  for (let i = 0; i < 36; i++) {
    const y = horizon + c.random() ** 1.5 * (shore - horizon);
    const x = c.between(-50, c.width);
    swells.push(`M${n(x)},${n(y)}q${n(40)},-4 ${n(90 + (y - horizon) * 0.6)},0`);
  }
  c.path(
    swells.join(''),
    'none',
    `stroke="${css(mix(far, white, 0.35))}" stroke-width="2" stroke-opacity="0.5"`,
  );
}

/** Sand from `top` to the bottom of the frame, with a wet band and a line of foam at the water. */
function shoreline(p: Painting, top: number, sand: Rgb): void {
  const { c, light } = p;
  const dry = land(p, sand, 0.15);
  const foam = wiggle(c.random, 5, 2);
  let edge = `M0,${n(c.height)}`;
  for (let i = 0; i <= 40; i++) edge += `L${n((i / 40) * c.width)},${n(top + foam(i / 40) * 10)}`;
  edge += `L${c.width},${n(c.height)}Z`;
  c.path(
    edge,
    c.vertical(
      [
        [0, mix(scaled(dry, 0.75), light.skyHorizon, 0.25)],
        [0.18, scaled(dry, 0.85)],
        [0.4, dry],
        [1, scaled(dry, 0.92)],
      ],
      top,
      c.height,
    ),
  );
  let crest = '';
  for (let i = 0; i <= 40; i++)
    crest += `${i ? 'L' : 'M'}${n((i / 40) * c.width)},${n(top + foam(i / 40) * 10)}`;
  c.path(
    crest,
    'none',
    `stroke="${css(outdoors(p, [250, 250, 248]))}" stroke-width="7" stroke-opacity="0.85"`,
  );
}

export function beach(p: Painting): void {
  const { c, horizon } = p;
  openSky(p, 5);
  const shore = horizon + (c.height - horizon) * 0.42;
  sea(p, shore, { far: [24, 84, 140], near: [64, 170, 190] });
  shoreline(p, shore, [226, 204, 164]);
}

/** A palm leaning in from one side: a curved trunk and a crown of drooping fronds. */
function palm(p: Painting, rootX: number, lean: number, height: number): void {
  const { c } = p;
  const bark = css(land(p, [86, 66, 46], 0));
  const root: [number, number] = [rootX, c.height + 20];
  const top: [number, number] = [rootX + lean, c.height - height];
  c.path(
    `M${n(root[0] - 22)},${n(root[1])}Q${n(rootX + lean * 0.2)},${n(c.height - height * 0.5)} ${n(top[0] - 7)},${n(top[1])}L${n(top[0] + 7)},${n(top[1])}Q${n(rootX + lean * 0.2 + 24)},${n(c.height - height * 0.5)} ${n(root[0] + 22)},${n(root[1])}Z`,
    bark,
  );
  const leaf = css(land(p, [40, 104, 52], 0.1));
  const lit = css(land(p, [96, 150, 66], 0.1));
  for (let i = 0; i < 9; i++) {
    const angle = (i / 9) * Math.PI * 2 + c.between(-0.2, 0.2);
    const length = c.between(190, 270);
    const tipX = top[0] + Math.cos(angle) * length;
    const tipY = top[1] + Math.sin(angle) * length * 0.45 + length * 0.35;
    const midX = top[0] + Math.cos(angle) * length * 0.55;
    const midY = top[1] + Math.sin(angle) * length * 0.3 - 40;
    const width = 30;
    c.path(
      `M${n(top[0])},${n(top[1])}Q${n(midX)},${n(midY - width)} ${n(tipX)},${n(tipY)}Q${n(midX)},${n(midY + width)} ${n(top[0])},${n(top[1])}Z`,
      i % 3 ? leaf : lit,
    );
  }
}

export function tropical(p: Painting): void {
  const { c, horizon } = p;
  openSky(p, 4);
  ridge(p, horizon, 40, 2, css(mix(land(p, [40, 90, 60]), p.light.haze, 0.5)), { octaves: 2 });
  const shore = horizon + (c.height - horizon) * 0.38;
  sea(p, shore, { far: [20, 120, 150], near: [70, 214, 200] });
  shoreline(p, shore, [240, 226, 196]);
  palm(p, c.width * 0.02, c.width * 0.12, c.height * 0.88);
  palm(p, c.width * 1.0, -c.width * 0.16, c.height * 0.78);
}

/** A row of conifers along a line: the dark, jagged edge of a far wood. */
function pines(
  p: Painting,
  baseline: number,
  height: [number, number],
  colour: Rgb,
  spacing = 22,
): void {
  const { c } = p;
  let d = `M0,${n(baseline + 40)}`;
  for (let x = -10; x < c.width + spacing; x += spacing * c.between(0.6, 1.3)) {
    const h = c.between(height[0], height[1]);
    d += `L${n(x)},${n(baseline)}L${n(x + spacing * 0.5)},${n(baseline - h)}L${n(x + spacing)},${n(baseline)}`;
  }
  d += `L${c.width},${n(baseline + 40)}Z`;
  c.path(d, css(colour));
}

export function lake(p: Painting): void {
  const { c, light, horizon } = p;
  const start = c.mark();
  sky(p);
  clouds(p, 5, horizon * 0.08, horizon * 0.6);
  cloudCover(p);
  const far = mix(land(p, [80, 96, 120]), light.haze, 0.35);
  ridge(
    p,
    horizon - 90,
    200,
    2,
    c.vertical(
      [
        [0, mix(outdoors(p, [240, 244, 250]), light.haze, 0.3)],
        [0.35, far],
        [1, far],
      ],
      horizon - 290,
      horizon,
    ),
    { sharpness: 0.6 },
  );
  veil(p, horizon - 200, horizon, light.haze, 0.35);
  ridge(p, horizon - 20, 60, 3, css(mix(land(p, [50, 80, 60]), light.haze, 0.35)));
  pines(p, horizon, [40, 90], land(p, [26, 52, 38]));
  const landscape = c.since(start);
  // The still lake mirrors the land, a little darker and softened by ripples.
  const water = c.define(
    (id) =>
      `<clipPath id="${id}"><rect x="0" y="${n(horizon)}" width="${c.width}" height="${n(c.height - horizon)}"/></clipPath>`,
  );
  c.add(
    `<g clip-path="url(#${water})"><g transform="matrix(1 0 0 -1 0 ${n(horizon * 2)})" opacity="0.85">${landscape}</g></g>`,
  );
  c.rect(
    0,
    horizon,
    c.width,
    c.height - horizon,
    css(outdoors(p, [30, 60, 80])),
    'fill-opacity="0.35"',
  );
  const ripples: string[] = [];
  for (let i = 0; i < 60; i++) {
    const y = horizon + c.random() ** 1.4 * (c.height - horizon);
    ripples.push(`M${n(c.between(-40, c.width))},${n(y)}h${n(c.between(40, 200))}`);
  }
  c.path(
    ripples.join(''),
    'none',
    `stroke="${css(mix(light.skyHorizon, white, 0.3))}" stroke-width="1.6" stroke-opacity="0.35"`,
  );
  c.rect(0, horizon - 1, c.width, 3, css(mix(light.skyHorizon, white, 0.4)), 'fill-opacity="0.5"');
}

export function mountains(p: Painting): void {
  const { c, light, horizon } = p;
  openSky(p, 4);
  const rock: Rgb = land(p, [96, 102, 118]);
  const snow = outdoors(p, [244, 246, 252]);
  const layers = 5;
  for (let i = 0; i < layers; i++) {
    const distance = 1 - i / (layers - 1);
    const top = horizon - c.height * (0.34 - i * 0.05);
    const colour = mix(scaled(rock, 1 - i * 0.12), light.haze, distance * 0.72);
    const fill =
      i < 2
        ? c.vertical(
            [
              [0, mix(snow, light.haze, distance * 0.3)],
              [0.3, mix(snow, light.haze, distance * 0.3)],
              [0.55, colour],
              [1, colour],
            ],
            top - 160,
            top + 240,
          )
        : i === layers - 1
          ? c.vertical(
              [
                [0, land(p, [120, 146, 80])],
                [0.3, land(p, [84, 116, 60])],
                [1, land(p, [50, 76, 40])],
              ],
              horizon - 60,
              c.height,
            )
          : css(colour);
    ridge(p, top, 190 - i * 30, 1.5 + i, fill, { sharpness: i < 3 ? 0.75 : 0.2 });
    if (i < layers - 1) veil(p, top - 100, top + 200, light.haze, 0.22 * distance);
  }
}

/** Trunks at one distance: far ones thin and pale in the haze, near ones wide and dark. */
function trunks(
  p: Painting,
  count: number,
  width: [number, number],
  colour: Rgb,
  top: number,
  bottom: number,
): void {
  const { c } = p;
  const bark = c.across([
    [0, scaled(colour, 0.7)],
    [0.4, colour],
    [1, scaled(colour, 0.55)],
  ]);
  for (let i = 0; i < count; i++) {
    const w = c.between(width[0], width[1]);
    c.rect(c.between(-w, c.width), top, w, bottom - top, bark);
  }
}

export function forest(p: Painting): void {
  const { c, light, horizon } = p;
  const glade = mix(land(p, [196, 214, 150]), light.haze, 0.3);
  c.fillToHorizon(horizon, [
    [0, mix(glade, light.skyMiddle, 0.4)],
    [0.6, glade],
    [1, land(p, [70, 90, 50])],
  ]);
  const [sunX] = sunAt(p);
  c.glow(sunX, c.height * 0.2, 420, 420, light.sun.colour, light.isNight ? 0.15 : 0.55);
  const bark: Rgb = land(p, [70, 56, 44], 0);
  trunks(p, 26, [10, 20], mix(bark, glade, 0.65), 0, horizon + 10);
  veil(p, 0, horizon + 20, glade, 0.35);
  trunks(p, 12, [24, 44], mix(bark, glade, 0.35), 0, horizon + 30);
  crownsAcrossTop(p, land(p, [50, 92, 44]), land(p, [130, 170, 70]));
  lightRays(
    p,
    [sunX, -60],
    7,
    mix(light.sun.colour, white, 0.3),
    light.isNight ? 0.05 : 0.22,
    c.height,
  );
  const moss = land(p, [80, 104, 50]);
  c.ground(horizon, [
    [0, mix(moss, glade, 0.4)],
    [1, scaled(moss, 0.55)],
  ]);
  bokeh(
    p,
    18,
    { left: 0, right: c.width, top: horizon - 30, bottom: c.height },
    [land(p, [120, 150, 60]), land(p, [200, 210, 120])],
    [8, 20],
    0.35,
  );
  for (const x of [0.02, 0.9]) {
    c.rect(
      c.width * x + c.between(-20, 20),
      0,
      c.between(60, 90),
      c.height,
      c.across([
        [0, scaled(bark, 0.5)],
        [0.5, scaled(bark, 0.9)],
        [1, scaled(bark, 0.4)],
      ]),
    );
  }
}

/** A ceiling of leaves along the top of the frame. */
function crownsAcrossTop(p: Painting, shade: Rgb, lit: Rgb): void {
  const { c } = p;
  for (let x = -60; x < c.width + 60; x += c.between(90, 150)) {
    crown(p, x, c.between(-30, c.height * 0.08), c.between(90, 140), { shade, lit });
  }
}

export function autumnPark(p: Painting): void {
  const { c, light, horizon, scene } = p;
  openSky(p, 3);
  const foliage: Rgb[] = [
    [196, 84, 30],
    [222, 140, 40],
    [170, 48, 30],
    [230, 180, 70],
  ];
  veil(p, horizon * 0.5, horizon, light.haze, 0.4);
  const grass = land(p, [110, 112, 56]);
  c.ground(horizon, [
    [0, mix(grass, light.haze, 0.3)],
    [1, scaled(grass, 0.7)],
  ]);
  for (let row = 0; row < 2; row++) {
    const near = row === 1;
    for (let x = c.between(-80, 0); x < c.width + 100; x += c.between(150, 260)) {
      const size = near ? c.between(130, 170) : c.between(70, 100);
      const base = horizon + (near ? 20 : -10);
      const colour = land(p, foliage[Math.floor(c.random() * foliage.length)]!, 0.1);
      const trunkColour = mix(land(p, [60, 44, 34], 0), light.haze, near ? 0 : 0.4);
      c.rect(x - size * 0.07, base - size * 1.6, size * 0.14, size * 1.6, css(trunkColour));
      crown(p, x, base - size * 1.8, size, {
        shade: mix(scaled(colour, 0.75), light.haze, near ? 0 : 0.35),
        lit: mix(mix(colour, [255, 220, 120], 0.35), light.haze, near ? 0 : 0.35),
      });
    }
  }
  const path = land(p, [190, 176, 156]);
  c.receding(horizon, [0.46, 0.54], [0.1, 0.9], { far: mix(path, light.haze, 0.3), near: path });
  const leaves = foliage.map(() => [] as string[]);
  for (let i = 0; i < 260; i++) {
    const y = horizon + c.random() ** 0.7 * (c.height - horizon);
    const size = 2 + ((y - horizon) / (c.height - horizon)) * 7;
    leaves[i % foliage.length]!.push(
      `M${n(c.between(0, c.width))},${n(y)}m-${n(size)},0a${n(size)},${n(size * 0.5)} 0 1,0 ${n(size * 2)},0a${n(size)},${n(size * 0.5)} 0 1,0 -${n(size * 2)},0`,
    );
  }
  leaves.forEach((shapes, i) =>
    c.path(shapes.join(''), css(land(p, foliage[i]!, 0.1)), 'fill-opacity="0.85"'),
  );
  bokeh(
    p,
    14,
    { left: 0, right: c.width, top: 0, bottom: horizon },
    [land(p, [255, 170, 60]), scene.palette.accent],
    [10, 22],
    0.3,
  );
}

export function field(p: Painting): void {
  const { c, light, horizon } = p;
  openSky(p, 7);
  const trees = mix(land(p, [50, 80, 50]), light.haze, 0.45);
  ridge(p, horizon - 18, 22, 14, css(trees), { octaves: 2 });
  const wheat = land(p, [214, 176, 96], 0.15);
  c.rect(
    0,
    horizon - 4,
    c.width,
    c.height - horizon + 4,
    c.vertical(
      [
        [0, mix(wheat, light.haze, 0.35)],
        [0.4, wheat],
        [1, scaled(wheat, 0.72)],
      ],
      horizon,
    ),
  );
  const stalks: string[] = [];
  for (let i = 0; i < 700; i++) {
    const depth = c.random() ** 0.8;
    const y = horizon + depth * (c.height - horizon);
    const length = 4 + depth * 40;
    const x = c.between(-10, c.width + 10);
    stalks.push(`M${n(x)},${n(y)}l${n(c.between(-0.15, 0.15) * length)},${n(-length)}`);
  }
  c.path(
    stalks.join(''),
    'none',
    `stroke="${css(mix(wheat, white, 0.35))}" stroke-width="2" stroke-opacity="0.55"`,
  );
  c.path(
    stalks.slice(0, 250).join(''),
    'none',
    `stroke="${css(scaled(wheat, 0.6))}" stroke-width="2" stroke-opacity="0.4" transform="translate(6 3)"`,
  );
}

export function garden(p: Painting): void {
  const { c, light, horizon, scene } = p;
  openSky(p, 4);
  const hedge = land(p, [52, 96, 50]);
  for (let x = -40; x < c.width + 80; x += 110) {
    c.ellipse(x, horizon - c.height * 0.16, 80, 60, css(mix(hedge, light.haze, 0.3)));
  }
  c.rect(
    0,
    horizon - c.height * 0.16,
    c.width,
    c.height * 0.16 + 10,
    c.vertical(
      [
        [0, mix(hedge, light.haze, 0.3)],
        [1, scaled(hedge, 0.6)],
      ],
      horizon - c.height * 0.16,
      horizon,
    ),
  );
  // A rose arch to each side frames the sitter.
  for (const x of [0.12, 0.88]) {
    crown(p, c.width * x, c.height * 0.24, 120, {
      shade: scaled(hedge, 0.8),
      lit: mix(hedge, [200, 230, 120], 0.4),
    });
    crown(p, c.width * x, c.height * 0.46, 110, {
      shade: scaled(hedge, 0.7),
      lit: mix(hedge, [200, 230, 120], 0.3),
    });
  }
  const petals: Rgb[] = [
    land(p, [240, 130, 160], 0),
    land(p, [252, 246, 240], 0),
    land(p, scene.palette.accent, 0),
    land(p, [200, 60, 90], 0),
  ];
  const blossoms = petals.map(() => [] as string[]);
  for (let i = 0; i < 420; i++) {
    const side = c.random() < 0.5 ? c.between(0, 0.28) : c.between(0.72, 1);
    const high = i < 160;
    const y = high
      ? c.between(c.height * 0.1, c.height * 0.58)
      : horizon + c.random() ** 0.8 * (c.height - horizon);
    const x = high ? side * c.width : c.between(0, c.width);
    const r = high ? c.between(5, 10) : 3 + ((y - horizon) / (c.height - horizon)) * 9;
    blossoms[i % petals.length]!.push(
      `M${n(x - r)},${n(y)}a${n(r)},${n(r)} 0 1,0 ${n(r * 2)},0a${n(r)},${n(r)} 0 1,0 -${n(r * 2)},0`,
    );
  }
  const lawn = land(p, [70, 130, 56]);
  c.ground(horizon, [
    [0, mix(lawn, light.haze, 0.2)],
    [1, scaled(lawn, 0.7)],
  ]);
  blossoms.forEach((shapes, i) => c.path(shapes.join(''), css(petals[i]!), 'fill-opacity="0.9"'));
  bokeh(p, 16, { left: 0, right: c.width, top: 0, bottom: horizon }, petals, [10, 22], 0.35);
}

export function desert(p: Painting): void {
  const { c, light, horizon } = p;
  openSky(p, 2);
  const sand = land(p, [222, 164, 104], 0.2);
  const layers = 4;
  for (let i = 0; i < layers; i++) {
    const distance = 1 - i / (layers - 1);
    const top = horizon - 40 + i * ((c.height - horizon) * 0.28);
    const lit = mix(mix(sand, [255, 230, 180], 0.35), light.haze, distance * 0.4);
    const shade = mix(scaled(sand, 0.5), light.haze, distance * 0.35);
    const crest = ridge(
      p,
      top,
      80 - i * 8,
      1.2 + i * 0.4,
      c.vertical(
        [
          [0, lit],
          [0.3, mix(lit, sand, 0.5)],
          [1, scaled(sand, 0.85)],
        ],
        top - 80,
        top + 200,
      ),
      { octaves: 2, sharpness: 0.6 },
    );
    // The lee side: a band of shade below the crest, falling away from the sun.
    const fall = wiggle(c.random, 2, 2);
    let lee = '';
    for (let k = 0; k <= 60; k++)
      lee += `${k ? 'L' : 'M'}${n((k / 60) * c.width)},${n(crest((k / 60) * c.width))}`;
    for (let k = 60; k >= 0; k--) {
      const x = (k / 60) * c.width;
      lee += `L${n(x + 50)},${n(crest(x) + 70 + 40 * fall(k / 60))}`;
    }
    c.path(`${lee}Z`, css(shade), 'fill-opacity="0.5"');
  }
  const ripples: string[] = [];
  for (let i = 0; i < 50; i++) {
    const y = horizon + (c.height - horizon) * (0.45 + c.random() * 0.55);
    ripples.push(
      `M${n(c.between(-50, c.width))},${n(y)}q${n(60)},${n(-8)} ${n(c.between(100, 220))},${n(c.between(-6, 6))}`,
    );
  }
  c.path(
    ripples.join(''),
    'none',
    `stroke="${css(scaled(sand, 0.7))}" stroke-width="2.5" stroke-opacity="0.45"`,
  );
}

/** A cottage with a snowy roof; its windows glow once the lights are on. */
function cottage(p: Painting, x: number, baseline: number, size: number): void {
  const { c, light } = p;
  const wall = land(p, [150, 96, 66], 0.1);
  const body = { width: size, height: size * 0.7 };
  c.rect(x, baseline - body.height, body.width, body.height, css(wall));
  const roofTop = baseline - body.height - size * 0.5;
  c.polygon(
    [
      [x - size * 0.12, baseline - body.height + 4],
      [x + size / 2, roofTop],
      [x + size * 1.12, baseline - body.height + 4],
    ],
    css(outdoors(p, [240, 244, 252])),
  );
  const windowColour: Rgb =
    light.lightsOn > 0.3 ? [255, 200, 110] : mix(light.skyTop, [40, 40, 50], 0.5);
  for (const at of [0.2, 0.6]) {
    const wx = x + size * at;
    const wy = baseline - body.height * 0.72;
    if (light.lightsOn > 0.3)
      c.glow(wx + size * 0.1, wy + size * 0.12, size * 0.5, size * 0.45, [255, 180, 90], 0.5);
    c.rect(wx, wy, size * 0.2, size * 0.24, css(windowColour));
  }
  c.rect(x + size * 0.7, roofTop + size * 0.12, size * 0.12, size * 0.28, css(scaled(wall, 0.7)));
}

/** A snowy fir: stacked tiers, dark under their load of white. */
function fir(p: Painting, x: number, baseline: number, height: number): void {
  const { c } = p;
  const needles = css(land(p, [34, 64, 52], 0.1));
  const snow = css(outdoors(p, [236, 242, 250]));
  for (let tier = 0; tier < 4; tier++) {
    const top = baseline - height + tier * height * 0.2;
    const half = height * (0.14 + tier * 0.07);
    const bottom = top + height * 0.34;
    c.polygon(
      [
        [x, top],
        [x + half, bottom],
        [x - half, bottom],
      ],
      needles,
    );
    c.polygon(
      [
        [x, top],
        [x + half * 0.5, top + (bottom - top) * 0.5],
        [x - half * 0.5, top + (bottom - top) * 0.5],
      ],
      snow,
    );
  }
}

export function snow(p: Painting): void {
  const { c, light, horizon } = p;
  openSky(p, 3);
  const snowLight = outdoors(p, [240, 244, 252]);
  const snowShade = outdoors(p, [176, 192, 220]);
  ridge(
    p,
    horizon - c.height * 0.1,
    150,
    2,
    c.vertical(
      [
        [0, mix(snowLight, light.haze, 0.4)],
        [1, mix(snowShade, light.haze, 0.5)],
      ],
      horizon - c.height * 0.3,
      horizon,
    ),
    { sharpness: 0.7 },
  );
  const hill = ridge(
    p,
    horizon,
    40,
    1.5,
    c.vertical(
      [
        [0, snowLight],
        [1, snowShade],
      ],
      horizon - 60,
      horizon + 200,
    ),
    { octaves: 2 },
  );
  const spots = [0.06, 0.2, 0.34, 0.62, 0.78, 0.92];
  spots.forEach((at, i) => {
    const x = at * c.width;
    if (i % 2) fir(p, x, hill(x) + 8, c.between(110, 170));
    else cottage(p, x - 40, hill(x) + 10, c.between(70, 90));
  });
  const front = horizon + (c.height - horizon) * 0.25;
  ridge(
    p,
    front,
    30,
    1.2,
    c.vertical(
      [
        [0, mix(snowLight, white, 0.3)],
        [1, snowShade],
      ],
      front - 30,
      c.height,
    ),
    { octaves: 2 },
  );
  fir(p, c.width * 0.02, c.height * 1.02, 420);
  fir(p, c.width * 0.98, c.height * 1.02, 380);
}

export function skyPlace(p: Painting): void {
  const { c, light, horizon } = p;
  sky(p, c.height);
  clouds(p, 6, c.height * 0.08, horizon * 0.7, 1.2);
  const [sunX, sunY] = sunAt(p);
  if (!light.isNight) lightRays(p, [sunX, sunY], 8, light.sun.colour, 0.12, c.height);
  cloudCover(p);
  // The cloud sea: rows of billows, each nearer row bigger and brighter.
  c.rect(
    0,
    horizon + 60,
    c.width,
    c.height - horizon - 60,
    c.vertical(
      [
        [0, light.cloud],
        [1, mix(light.cloud, light.cloudEdge, 0.5)],
      ],
      horizon,
      c.height,
    ),
  );
  for (let row = 0; row < 3; row++) {
    const top = horizon + row * 110;
    clouds(p, 6, top - 20, top + 20, 1.2 + row * 0.4);
  }
  veil(p, horizon - 40, c.height, light.cloud, 0.45);
}
