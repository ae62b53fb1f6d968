import type { Rgb } from '../scene.ts';

/**
 * The drawing surface the backdrop painters share: an SVG in a resolution-free frame 1000 units
 * wide (and as tall as the picture's aspect asks), so a seed puts every star and window in the
 * same place at 512 and at 1024 pixels wide.
 */

export const frameWidth = 1000;

export type Stop = [offset: number, colour: Rgb, opacity?: number];

export function mix(a: Rgb, b: Rgb, t: number): Rgb {
  return [a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t, a[2] + (b[2] - a[2]) * t];
}

export function scaled(colour: Rgb, factor: number): Rgb {
  return [colour[0] * factor, colour[1] * factor, colour[2] * factor];
}

/** A surface's colour under a light: channel by channel, as a white card under a gel. */
export function litBy(colour: Rgb, light: Rgb): Rgb {
  return [(colour[0] * light[0]) / 255, (colour[1] * light[1]) / 255, (colour[2] * light[2]) / 255];
}

export function luma(colour: Rgb): number {
  return 0.2126 * colour[0] + 0.7152 * colour[1] + 0.0722 * colour[2];
}

/**
 * Shifts `colour` by `amount` of `tint`'s hue and saturation but not its lightness, so a grey
 * palette leaves a place's own colours alone and a saturated one pulls them towards it.
 */
export function tintedBy(colour: Rgb, tint: Rgb, amount: number): Rgb {
  const grey = luma(tint);
  return [
    colour[0] + (tint[0] - grey) * amount,
    colour[1] + (tint[1] - grey) * amount,
    colour[2] + (tint[2] - grey) * amount,
  ];
}

export function css(colour: Rgb): string {
  const channel = (v: number) => Math.round(Math.max(0, Math.min(255, v)));
  return `rgb(${channel(colour[0])},${channel(colour[1])},${channel(colour[2])})`;
}

/** Numbers in the SVG text: a tenth of a unit is finer than a pixel at any size we paint. */
export function n(value: number): string {
  return String(Math.round(value * 10) / 10);
}

/** mulberry32: small, fast and the same on every platform, so a seed always paints alike. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function hashText(text: string): number {
  let hash = 2166136261;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 16777619);
  return hash >>> 0;
}

export class Canvas {
  readonly width = frameWidth;
  readonly height: number;
  private readonly defs: string[] = [];
  private readonly body: string[] = [];
  private nextId = 0;

  constructor(
    aspect: number,
    readonly random: () => number,
  ) {
    this.height = frameWidth * aspect;
  }

  /** A value between `from` and `to`, from the seed. */
  between(from: number, to: number): number {
    return from + (to - from) * this.random();
  }

  add(element: string): void {
    this.body.push(element);
  }

  rect(x: number, y: number, width: number, height: number, fill: string, extra = ''): void {
    this.add(
      `<rect x="${n(x)}" y="${n(y)}" width="${n(width)}" height="${n(height)}" fill="${fill}" ${extra}/>`,
    );
  }

  /**
   * Fills the whole picture with a gradient from the top down to `horizon` (a wall, the water, a
   * glade; its last colour goes on below, where the ground usually covers it).
   */
  fillToHorizon(horizon: number, stops: Stop[]): void {
    this.fillAll(this.vertical(stops, 0, horizon));
  }

  /**
   * A strip from the horizon to the bottom edge (a path, a carpet) narrowing into the distance:
   * its far edge spans `far` and its near edge `near` (fractions of the width), shaded from
   * `colours.far` to `colours.near`.
   */
  receding(
    horizon: number,
    far: [number, number],
    near: [number, number],
    colours: { far: Rgb; near: Rgb },
  ): void {
    this.polygon(
      [
        [this.width * far[0], horizon],
        [this.width * far[1], horizon],
        [this.width * near[1], this.height],
        [this.width * near[0], this.height],
      ],
      this.vertical(
        [
          [0, colours.far],
          [1, colours.near],
        ],
        horizon,
      ),
    );
  }

  /** Fills all below `horizon` (the ground, a floor, a sea bed) with a gradient from it down. */
  ground(horizon: number, stops: Stop[]): void {
    this.rect(0, horizon, this.width, this.height - horizon, this.vertical(stops, horizon));
  }

  fillAll(fill: string, extra = ''): void {
    this.rect(0, 0, this.width, this.height, fill, extra);
  }

  circle(x: number, y: number, radius: number, fill: string, extra = ''): void {
    this.add(`<circle cx="${n(x)}" cy="${n(y)}" r="${n(radius)}" fill="${fill}" ${extra}/>`);
  }

  ellipse(x: number, y: number, rx: number, ry: number, fill: string, extra = ''): void {
    this.add(
      `<ellipse cx="${n(x)}" cy="${n(y)}" rx="${n(rx)}" ry="${n(ry)}" fill="${fill}" ${extra}/>`,
    );
  }

  path(d: string, fill: string, extra = ''): void {
    this.add(`<path d="${d}" fill="${fill}" ${extra}/>`);
  }

  polygon(points: [number, number][], fill: string, extra = ''): void {
    this.add(
      `<polygon points="${points.map(([x, y]) => `${n(x)},${n(y)}`).join(' ')}" fill="${fill}" ${extra}/>`,
    );
  }

  line(
    x1: number,
    y1: number,
    x2: number,
    y2: number,
    stroke: Rgb,
    width: number,
    extra = '',
  ): void {
    this.add(
      `<line x1="${n(x1)}" y1="${n(y1)}" x2="${n(x2)}" y2="${n(y2)}" stroke="${css(stroke)}" stroke-width="${n(width)}" ${extra}/>`,
    );
  }

  /** A gradient along a line in frame units; returns the paint to fill with. */
  linear(stops: Stop[], x1: number, y1: number, x2: number, y2: number): string {
    const id = `g${this.nextId++}`;
    this.defs.push(
      `<linearGradient id="${id}" gradientUnits="userSpaceOnUse" x1="${n(x1)}" y1="${n(y1)}" x2="${n(x2)}" y2="${n(y2)}">${stopsSvg(stops)}</linearGradient>`,
    );
    return `url(#${id})`;
  }

  /** A top-to-bottom gradient over the frame's full height between `top` and `bottom`. */
  vertical(stops: Stop[], top = 0, bottom = this.height): string {
    return this.linear(stops, 0, top, 0, bottom);
  }

  /** A left-to-right gradient across each shape it fills: a trunk's or a fold's shading. */
  across(stops: Stop[]): string {
    const id = `g${this.nextId++}`;
    this.defs.push(`<linearGradient id="${id}">${stopsSvg(stops)}</linearGradient>`);
    return `url(#${id})`;
  }

  /** A radial gradient in the shape's own box (0-1), for glows, puffs and discs. */
  radial(stops: Stop[], cx = 0.5, cy = 0.5, r = 0.5): string {
    const id = `g${this.nextId++}`;
    this.defs.push(
      `<radialGradient id="${id}" cx="${cx}" cy="${cy}" r="${r}">${stopsSvg(stops)}</radialGradient>`,
    );
    return `url(#${id})`;
  }

  /** A soft glow: `colour` at the centre fading out to nothing. */
  glow(x: number, y: number, rx: number, ry: number, colour: Rgb, opacity: number): void {
    this.ellipse(
      x,
      y,
      rx,
      ry,
      this.radial([
        [0, colour, opacity],
        [0.35, colour, opacity * 0.55],
        [1, colour, 0],
      ]),
    );
  }

  /** Registers a filter (its inner primitives) and returns the attribute that applies it. */
  filter(primitives: string, region = 'x="-20%" y="-20%" width="140%" height="140%"'): string {
    const id = `f${this.nextId++}`;
    this.defs.push(`<filter id="${id}" ${region}>${primitives}</filter>`);
    return `filter="url(#${id})"`;
  }

  /** Registers any other definition (a mask, a clip path) under a fresh id; returns the id. */
  define(element: (id: string) => string): string {
    const id = `d${this.nextId++}`;
    this.defs.push(element(id));
    return id;
  }

  /** Where the drawing is now, to copy what follows (a reflection, say) with `since`. */
  mark(): number {
    return this.body.length;
  }

  since(mark: number): string {
    return this.body.slice(mark).join('');
  }

  /** Opens a group (blurred, clipped, faded …) that `close` ends. */
  open(attributes: string): void {
    this.add(`<g ${attributes}>`);
  }

  close(): void {
    this.add('</g>');
  }

  svg(pixelWidth: number, pixelHeight: number): string {
    return (
      `<svg xmlns="http://www.w3.org/2000/svg" width="${pixelWidth}" height="${pixelHeight}" ` +
      `viewBox="0 0 ${this.width} ${n(this.height)}" preserveAspectRatio="none">` +
      `<defs>${this.defs.join('')}</defs>${this.body.join('')}</svg>`
    );
  }
}

function stopsSvg(stops: Stop[]): string {
  return stops
    .map(
      ([offset, colour, opacity = 1]) =>
        `<stop offset="${Math.round(offset * 1000) / 1000}" stop-color="${css(colour)}" stop-opacity="${Math.round(opacity * 1000) / 1000}"/>`,
    )
    .join('');
}
