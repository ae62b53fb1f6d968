import type { Rgb, Scene } from '../scene.ts';
import { type Canvas, css, litBy, mix, n, scaled } from './canvas.ts';
import type { Lighting } from './lighting.ts';

/** What every place painter gets: the canvas, the scene, its light and where its horizon lies. */
export interface Painting {
  c: Canvas;
  scene: Scene;
  light: Lighting;
  /** The floor or horizon line, in frame units from the top. */
  horizon: number;
}

/** An outdoor surface's colour under this hour's daylight. */
export function outdoors(p: Painting, colour: Rgb): Rgb {
  return litBy(colour, p.light.outdoor);
}

/** A room surface's colour under this hour's window light or lamps. */
export function indoors(p: Painting, colour: Rgb): Rgb {
  return litBy(colour, p.light.indoor);
}

/** Smooth random wiggle over 0..1: a few octaves of cosine-interpolated value noise. */
export function wiggle(random: () => number, features: number, octaves = 3): (x: number) => number {
  const layers = Array.from({ length: octaves }, (_, octave) => {
    const count = Math.ceil(features * 2 ** octave) + 2;
    return Array.from({ length: count }, () => random() * 2 - 1);
  });
  return (x) => {
    let sum = 0;
    let weight = 1;
    let total = 0;
    layers.forEach((values, octave) => {
      const position = x * features * 2 ** octave;
      const i = Math.floor(position);
      const t = (1 - Math.cos((position - i) * Math.PI)) / 2;
      sum += weight * (values[i]! * (1 - t) + values[i + 1]! * t);
      total += weight;
      weight *= 0.5;
    });
    return sum / total;
  };
}

/** Sky from the top of the frame down to `bottom`, with the sun's glow (or moon and stars). */
export function sky(p: Painting, bottom = p.horizon, options: { stars?: number } = {}): void {
  const { c, light } = p;
  c.rect(
    0,
    0,
    c.width,
    bottom + 2,
    c.vertical(
      [
        [0, light.skyTop],
        [0.55, light.skyMiddle],
        [1, light.skyHorizon],
      ],
      0,
      bottom,
    ),
  );
  const sun = light.sun;
  const sunX = sun.x * c.width;
  const sunY = Math.min(sun.y * c.height, bottom - sun.radius * 0.4);
  if (light.isNight) {
    if (light.sun.visible) starfield(p, options.stars ?? 140, 0, bottom * 0.8);
    c.glow(sunX, sunY, 150, 150, [150, 170, 220], light.sun.visible ? 0.28 : 0.12);
    if (sun.visible) {
      c.circle(
        sunX,
        sunY,
        sun.radius,
        c.radial(
          [
            [0, [250, 250, 255]],
            [0.8, [226, 232, 246]],
            [1, [190, 200, 225]],
          ],
          0.4,
          0.4,
          0.6,
        ),
      );
    }
    return;
  }
  const glowStrength = sun.visible ? 0.8 : 0.25;
  c.glow(sunX, sunY, 520, 380, mix(sun.colour, light.skyHorizon, 0.3), glowStrength * 0.55);
  c.glow(sunX, sunY, 170, 170, sun.colour, glowStrength);
  if (sun.visible) c.circle(sunX, sunY, sun.radius, css(mix(sun.colour, [255, 255, 255], 0.6)));
}

export function starfield(p: Painting, count: number, top: number, bottom: number): void {
  const { c } = p;
  for (let i = 0; i < count; i++) {
    const size = c.random() ** 4 * 2.6 + 0.7;
    const tint: Rgb =
      c.random() < 0.2 ? [255, 226, 200] : c.random() < 0.3 ? [200, 216, 255] : [255, 255, 255];
    c.circle(
      c.between(0, c.width),
      c.between(top, bottom),
      size,
      css(tint),
      `fill-opacity="${n(c.between(0.35, 1))}"`,
    );
  }
}

/** Soft cumulus: clusters of radial puffs, lit from above, flatter underneath. */
export function clouds(
  p: Painting,
  count: number,
  top: number,
  bottom: number,
  size = 1,
  opacity = 1,
): void {
  const { c, light } = p;
  const body = c.radial([
    [0, light.cloud, 0.95 * opacity],
    [0.6, light.cloud, 0.7 * opacity],
    [1, light.cloud, 0],
  ]);
  const lit = c.radial(
    [
      [0, light.cloudEdge, 0.9 * opacity],
      [0.7, light.cloudEdge, 0.35 * opacity],
      [1, light.cloudEdge, 0],
    ],
    0.5,
    0.35,
  );
  for (let i = 0; i < count; i++) {
    const x = c.between(-100, c.width + 100);
    const y = c.between(top, bottom);
    // Nearer (lower) clouds look bigger.
    const scale =
      size * (0.6 + ((y - top) / Math.max(1, bottom - top)) * 0.7) * c.between(0.7, 1.3);
    const puffs = 4 + Math.floor(c.random() * 4);
    for (let k = 0; k < puffs; k++) {
      const dx = c.between(-150, 150) * scale;
      const dy = c.between(-40, 10) * scale - Math.abs(dx) * 0.1;
      const r = c.between(55, 110) * scale * (1 - Math.abs(dx) / (260 * scale));
      c.ellipse(x + dx, y + dy, r * 1.3, r * 0.8, body);
      c.ellipse(x + dx, y + dy - r * 0.25, r, r * 0.6, lit);
    }
  }
}

/** Out-of-focus lights: soft-edged discs that grow with the scene's depth of field. */
export function bokeh(
  p: Painting,
  count: number,
  area: { left: number; right: number; top: number; bottom: number },
  colours: Rgb[],
  radius: [number, number],
  opacity: number,
): void {
  const { c } = p;
  const grow = 0.55 + p.scene.depth;
  const discs = colours.map((colour) =>
    c.radial([
      [0, colour, opacity * 0.7],
      [0.82, colour, opacity * 0.85],
      [0.94, colour, opacity],
      [1, colour, 0],
    ]),
  );
  for (let i = 0; i < count; i++) {
    const fill = discs[Math.floor(c.random() * discs.length)]!;
    c.circle(
      c.between(area.left, area.right),
      c.between(area.top, area.bottom),
      c.between(radius[0], radius[1]) * grow,
      fill,
      `fill-opacity="${n(c.between(0.35, 1))}"`,
    );
  }
}

/** A filled band whose top edge is a noisy ridge line at `y`, down to the frame's bottom. */
export function ridge(
  p: Painting,
  y: number,
  amplitude: number,
  features: number,
  fill: string,
  options: { octaves?: number; sharpness?: number } = {},
): (x: number) => number {
  const { c } = p;
  const noise = wiggle(c.random, features, options.octaves ?? 4);
  const sharpness = options.sharpness ?? 0;
  const heightAt = (x: number) => {
    const v = noise(x / c.width);
    // Folding the noise (1 - 2|v|) turns rolling hills into peaks.
    return y - amplitude * (v * (1 - sharpness) + (1 - 2 * Math.abs(v)) * sharpness);
  };
  const steps = 80;
  let d = `M0,${n(c.height)}`;
  for (let i = 0; i <= steps; i++) {
    const x = (i / steps) * c.width;
    d += ` L${n(x)},${n(heightAt(x))}`;
  }
  d += ` L${c.width},${n(c.height)} Z`;
  c.path(d, fill);
  return heightAt;
}

/** A gradient veil from `top` (clear) to `bottom` (at `strength`): distance, fog, mist. */
export function veil(
  p: Painting,
  top: number,
  bottom: number,
  colour: Rgb,
  strength: number,
): void {
  const { c } = p;
  // Either way up: a veil can thicken downwards (fog) or upwards (a floor's reflection).
  c.rect(
    0,
    Math.min(top, bottom),
    c.width,
    Math.abs(bottom - top),
    c.vertical(
      [
        [0, colour, 0],
        [1, colour, strength],
      ],
      top,
      bottom,
    ),
  );
}

/** Beams of light fanning down from a point above the frame. */
export function lightRays(
  p: Painting,
  origin: [number, number],
  count: number,
  colour: Rgb,
  opacity: number,
  reach = p.c.height,
): void {
  const { c } = p;
  const fade = c.linear(
    [
      [0, colour, opacity],
      [1, colour, 0],
    ],
    0,
    origin[1],
    0,
    origin[1] + reach,
  );
  for (let i = 0; i < count; i++) {
    const angle = c.between(-0.55, 0.55);
    const spread = c.between(0.02, 0.07);
    const far = (a: number): [number, number] => [
      origin[0] + Math.sin(a) * reach * 1.2,
      origin[1] + Math.cos(a) * reach * 1.2,
    ];
    c.polygon(
      [origin, far(angle - spread), far(angle + spread)],
      fade,
      `fill-opacity="${n(c.between(0.4, 1))}"`,
    );
  }
}

/** A building face with a grid of windows, some lit. */
export function windowGrid(
  p: Painting,
  box: { x: number; y: number; width: number; height: number },
  cell: { width: number; height: number; gap: number },
  colours: { wall: Rgb; dark: Rgb; lit: Rgb },
  litShare: number,
): void {
  const { c } = p;
  c.rect(box.x, box.y, box.width, box.height, css(colours.wall));
  const columns = Math.max(1, Math.floor((box.width - cell.gap) / (cell.width + cell.gap)));
  const rows = Math.max(1, Math.floor((box.height - cell.gap) / (cell.height + cell.gap)));
  const margin = (box.width - columns * (cell.width + cell.gap) + cell.gap) / 2;
  // Lit windows in two brightnesses, so a facade reads as rooms rather than a chart.
  const shades = [colours.dark, mix(colours.lit, colours.dark, 0.45), colours.lit];
  const panes = shades.map(() => [] as string[]);
  for (let row = 0; row < rows; row++) {
    for (let column = 0; column < columns; column++) {
      const x = box.x + margin + column * (cell.width + cell.gap);
      const y = box.y + cell.gap + row * (cell.height + cell.gap);
      const shade = c.random() < litShare ? (c.random() < 0.5 ? 1 : 2) : 0;
      panes[shade]!.push(`M${n(x)},${n(y)}h${n(cell.width)}v${n(cell.height)}h${n(-cell.width)}Z`);
    }
  }
  panes.forEach((rects, i) => {
    if (rects.length) c.path(rects.join(''), css(shades[i]!));
  });
}

/** Rain, falling snow and fog over an outdoor place; clear and overcast add nothing here. */
export function weather(p: Painting): void {
  const { c, light } = p;
  switch (p.scene.weather) {
    case 'fog':
      veil(p, p.horizon * 0.2, p.horizon, light.haze, 0.75);
      c.rect(0, p.horizon, c.width, c.height - p.horizon, css(light.haze), 'fill-opacity="0.55"');
      for (let i = 0; i < 5; i++) {
        c.glow(
          c.between(0, c.width),
          c.between(p.horizon * 0.6, c.height * 0.9),
          600,
          90,
          light.haze,
          0.5,
        );
      }
      return;
    case 'rain': {
      veil(p, 0, c.height, scaled(light.haze, 0.9), 0.3);
      const streaks: string[] = [];
      for (let i = 0; i < 420; i++) {
        const x = c.between(-60, c.width + 40);
        const y = c.between(-40, c.height);
        const length = c.between(25, 70);
        streaks.push(`M${n(x)},${n(y)}l${n(length * 0.18)},${n(length)}`);
      }
      c.path(
        streaks.join(''),
        'none',
        `stroke="${css(mix(light.haze, [255, 255, 255], 0.5))}" stroke-width="1.6" stroke-linecap="round" stroke-opacity="0.4"`,
      );
      return;
    }
    case 'snow': {
      veil(p, p.horizon * 0.3, p.horizon, light.haze, 0.35);
      const flake = c.radial([
        [0, [255, 255, 255], 0.95],
        [0.6, [255, 255, 255], 0.7],
        [1, [255, 255, 255], 0],
      ]);
      for (let i = 0; i < 260; i++) {
        const near = c.random() ** 3;
        c.circle(
          c.between(0, c.width),
          c.between(0, c.height),
          2.5 + near * 13,
          flake,
          `fill-opacity="${n(0.45 + near * 0.5)}"`,
        );
      }
      return;
    }
    case 'clear':
    case 'overcast':
      return;
  }
}

/** Overcast keeps its lid of cloud: a layer of soft grey over the sky. */
export function cloudCover(p: Painting, count = 10): void {
  if (p.scene.weather === 'clear' || p.scene.weather === 'fog') return;
  clouds(p, count, p.horizon * 0.02, p.horizon * 0.6, 1.4, 0.75);
}

/** Darkens the frame's sides, as a light that falls off away from the subject. */
export function sideFalloff(p: Painting, strength: number, colour: Rgb = [0, 0, 0]): void {
  const { c } = p;
  c.fillAll(
    c.linear(
      [
        [0, colour, strength],
        [0.3, colour, strength * 0.25],
        [0.5, colour, 0],
        [0.7, colour, strength * 0.25],
        [1, colour, strength],
      ],
      0,
      0,
      c.width,
      0,
    ),
  );
}

/** Bricks or stone blocks in staggered courses, a few shades mixed at random. */
export function masonry(
  p: Painting,
  area: { top: number; bottom: number },
  block: { width: number; height: number; joint: number },
  mortar: Rgb,
  shades: Rgb[],
): void {
  const { c } = p;
  c.rect(0, area.top, c.width, area.bottom - area.top, css(mortar));
  const courses = shades.map(() => [] as string[]);
  for (let y = area.top, row = 0; y < area.bottom; y += block.height, row++) {
    const offset = row % 2 ? -block.width / 2 : 0;
    for (let x = offset; x < c.width; x += block.width) {
      const width = block.width - block.joint;
      const height = Math.min(block.height - block.joint, area.bottom - y);
      courses[Math.floor(c.random() * shades.length)]!.push(
        `M${n(x)},${n(y)}h${n(width)}v${n(height)}h${n(-width)}Z`,
      );
    }
  }
  courses.forEach((bricks, i) => c.path(bricks.join(''), css(shades[i]!)));
}

/** Towers along a base line: `count` of them, lit windows by the hour, faded by distance. */
export function skyline(
  p: Painting,
  baseline: number,
  heights: [number, number],
  options: { count: number; wall: Rgb; haze: number; window: number; litShare?: number },
): void {
  const { c, light } = p;
  const wall = mix(options.wall, light.haze, options.haze);
  const litShare = options.litShare ?? light.lightsOn;
  const daylit = !light.isNight && light.lightsOn < 0.5;
  // By day the glass mirrors the sky and barely stands out from the walls; after dark rooms glow.
  const lit = mix(
    daylit ? mix(wall, [255, 255, 255], 0.22) : [255, 206, 140],
    light.haze,
    options.haze * 0.5,
  );
  const dark = daylit
    ? mix(wall, light.skyMiddle, 0.3)
    : mix(scaled(options.wall, 0.8), light.haze, options.haze);
  let x = c.between(-80, -10);
  const slot = c.width / options.count;
  while (x < c.width) {
    const width = slot * c.between(0.7, 1.4);
    const height = c.between(heights[0], heights[1]);
    const top = baseline - height;
    windowGrid(
      p,
      { x, y: top, width, height: height + 2 },
      { width: options.window, height: options.window * 1.4, gap: options.window * 0.7 },
      { wall: mix(wall, [0, 0, 0], c.between(0, 0.15)), dark, lit },
      litShare,
    );
    if (c.random() < 0.3)
      c.rect(x + width * 0.4, top - height * 0.12, width * 0.08, height * 0.12, css(wall));
    x += width + c.between(-slot * 0.3, slot * 0.15);
  }
}

/** A tree's crown: a cluster of leafy blobs, lighter where the sun catches the top. */
export function crown(
  p: Painting,
  x: number,
  y: number,
  size: number,
  colours: { shade: Rgb; lit: Rgb },
): void {
  const { c } = p;
  const shade = c.radial([
    [0, colours.shade],
    [0.75, colours.shade, 0.9],
    [1, colours.shade, 0],
  ]);
  const lit = c.radial(
    [
      [0, colours.lit, 0.9],
      [0.7, colours.lit, 0.4],
      [1, colours.lit, 0],
    ],
    0.45,
    0.3,
  );
  for (let i = 0; i < 7; i++) {
    const dx = c.between(-0.8, 0.8) * size;
    const dy = c.between(-0.6, 0.5) * size;
    const r = c.between(0.4, 0.7) * size;
    c.ellipse(x + dx, y + dy, r, r * 0.9, shade);
    c.ellipse(x + dx - r * 0.1, y + dy - r * 0.25, r * 0.7, r * 0.55, lit);
  }
}

/** A floor seen from eye height: boards or tiles running away to the horizon. */
export function perspectiveFloor(
  p: Painting,
  colours: { near: Rgb; far: Rgb; seam: Rgb },
  seams: number,
  seamOpacity: number,
): void {
  const { c, horizon } = p;
  c.ground(horizon, [
    [0, colours.far],
    [1, colours.near],
  ]);
  const vanishing: [number, number] = [c.width / 2, horizon - (c.height - horizon) * 1.6];
  const lines: string[] = [];
  for (let i = -seams; i <= seams * 2; i++) {
    const x = (i / seams) * c.width;
    const t = (horizon - vanishing[1]) / (c.height - vanishing[1]);
    const topX = vanishing[0] + (x - vanishing[0]) * t;
    lines.push(`M${n(topX)},${n(horizon)}L${n(x)},${n(c.height)}`);
  }
  c.path(
    lines.join(''),
    'none',
    `stroke="${css(colours.seam)}" stroke-width="2" stroke-opacity="${seamOpacity}"`,
  );
}
