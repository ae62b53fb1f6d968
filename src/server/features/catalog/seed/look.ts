import sharp, { type Blend, type Sharp } from 'sharp';

/**
 * A small toolkit for the default content's pictures: each step takes decoded pixels and
 * returns new ones, so a look is plain code (grade, duotone, backdrop, overlay...) and the
 * order of operations is exactly the order written. Every picture is made by us with sharp
 * from public-domain photos; none comes from an AI model.
 */

/** Decoded RGB pixels, the unit every step works on (no re-encoding between steps). */
export interface Pixels {
  data: Buffer;
  width: number;
  height: number;
}

/**
 * Pictures are portrait 4:5, the shape of the preset cards, made at 640 x 800: cards show them at
 * 320 px (640 on dense screens). Larger would cost seed time for placeholders an operator is
 * meant to replace. SVG layers are drawn in a 960 x 1200 design space and scaled.
 */
export const canvas = { width: 640, height: 800 } as const;
export const design = { width: 960, height: 1200 } as const;

export type Rgb = readonly [number, number, number];

function pipeline(pixels: Pixels) {
  return sharp(pixels.data, {
    raw: { width: pixels.width, height: pixels.height, channels: 3 },
  });
}

async function collect(image: Sharp): Promise<Pixels> {
  const { data, info } = await image
    .removeAlpha()
    .toColourspace('srgb')
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

export interface FrameOptions {
  /** >1 crops closer around the face; 1 keeps the whole photo (cover-cropped to 4:5). */
  zoom?: number;
  /** Face centre as a share of the photo's width and height, to zoom around it. */
  face?: { x: number; y: number };
  mirror?: boolean;
}

/** Decodes a source photo (EXIF-rotated) and frames it on the 4:5 canvas. */
export async function frame(input: Buffer, options: FrameOptions = {}): Promise<Pixels> {
  const zoom = options.zoom ?? 1;
  const face = options.face ?? { x: 0.5, y: 0.45 };
  let image = sharp(input).rotate();
  if (zoom > 1) {
    const decoded = await sharp(input).rotate().raw().toBuffer({ resolveWithObject: true });
    const { width, height, channels } = decoded.info;
    const aspect = canvas.width / canvas.height;
    const cropHeight = Math.round(Math.min(height, width / aspect) / zoom);
    const cropWidth = Math.round(cropHeight * aspect);
    const left = clamp(Math.round(face.x * width - cropWidth / 2), 0, width - cropWidth);
    const top = clamp(Math.round(face.y * height - cropHeight * 0.45), 0, height - cropHeight);
    image = sharp(decoded.data, { raw: { width, height, channels } }).extract({
      left,
      top,
      width: cropWidth,
      height: cropHeight,
    });
  }
  image = image.resize(canvas.width, canvas.height, { fit: 'cover', position: 'centre' });
  if (options.mirror) image = image.flop();
  return collect(image);
}

function clamp(value: number, min: number, max: number): number {
  return Math.max(min, Math.min(max, value));
}

export interface GradeOptions {
  brightness?: number;
  saturation?: number;
  /** Degrees around the colour wheel. */
  hue?: number;
  /** Contrast around mid-grey: 1 keeps it, 1.2 is punchier, 0.85 flatter. */
  contrast?: number;
  /** Lifts the blacks (0..80): the faded look of film. */
  lift?: number;
  gamma?: number;
  /** Multiplies each channel: a colour cast (warm = [1.08, 1, 0.9]). */
  balance?: Rgb;
}

const luma = [0.299, 0.587, 0.114] as const;

/**
 * Colour grading in one sharp pass: brightness and saturation as a colour matrix (recomb),
 * then contrast, lift and balance as a per-channel linear step. (sharp's modulate works in LCh
 * and costs several times more; in sRGB the difference does not show in these looks.)
 */
export async function grade(pixels: Pixels, options: GradeOptions): Promise<Pixels> {
  let image = pipeline(pixels);
  const brightness = options.brightness ?? 1;
  const saturation = options.saturation ?? 1;
  if (brightness !== 1 || saturation !== 1) {
    // Each output channel = brightness * (saturation * itself + (1 - saturation) * luma).
    const matrix = [0, 1, 2].map((row) =>
      luma.map(
        (weight, column) =>
          brightness * ((1 - saturation) * weight + (row === column ? saturation : 0)),
      ),
    ) as [[number, number, number], [number, number, number], [number, number, number]];
    image = image.recomb(matrix);
  }
  if (options.hue) image = image.modulate({ hue: options.hue });
  const contrast = options.contrast ?? 1;
  const lift = options.lift ?? 0;
  const balance = options.balance ?? [1, 1, 1];
  if (contrast !== 1 || lift !== 0 || balance.some((c) => c !== 1)) {
    // out = balance * (contrast * (in - 128) + 128), scaled into [lift, 255]; sharp applies this
    // after recomb and modulate within the same pass.
    const range = (255 - lift) / 255;
    const a = balance.map((b) => b * contrast * range);
    const b = balance.map((bal) => bal * (128 - contrast * 128) * range + lift);
    image = image.linear(a, b);
  }
  const result = await collect(image);
  return options.gamma ? collect(pipeline(result).gamma(options.gamma)) : result;
}

/** The darkest and lightest luminance of a picture, to stretch it to the full range. */
async function luminanceRange(pixels: Pixels): Promise<{ low: number; high: number }> {
  const { channels } = await pipeline(pixels)
    .recomb([[...luma], [...luma], [...luma]])
    .stats();
  const { min, max } = channels[0]!;
  return max - min < 16 ? { low: 0, high: 255 } : { low: min, high: max };
}

/**
 * Maps the picture's luminance onto a ramp between two colours (the duotone print look), in one
 * pass: luminance by recomb, then stretch and ramp as one linear step.
 */
export async function duotone(pixels: Pixels, shadow: Rgb, highlight: Rgb): Promise<Pixels> {
  const { low, high } = await luminanceRange(pixels);
  const a = shadow.map((s, i) => (highlight[i]! - s) / (high - low));
  const b = shadow.map((s, i) => s - a[i]! * low);
  return collect(
    pipeline(pixels)
      .recomb([[...luma], [...luma], [...luma]])
      .linear(a, b),
  );
}

/** Black and white, stretched to the full range, with extra contrast around mid-grey. */
export async function monochrome(pixels: Pixels, contrast = 1.15): Promise<Pixels> {
  const { low, high } = await luminanceRange(pixels);
  // Stretch [low, high] to [0, 255], then contrast around mid-grey: one linear step.
  const a = (contrast * 255) / (high - low);
  const b = 128 - contrast * 128 - a * low;
  return collect(
    pipeline(pixels)
      .recomb([[...luma], [...luma], [...luma]])
      .linear(a, b),
  );
}

export async function sepia(pixels: Pixels): Promise<Pixels> {
  return collect(
    pipeline(pixels).recomb([
      [0.393, 0.769, 0.189],
      [0.349, 0.686, 0.168],
      [0.272, 0.534, 0.131],
    ]),
  );
}

interface Rgba {
  data: Buffer;
  width: number;
  height: number;
}

const rendered = new Map<string, Promise<Rgba>>();
const noiseTiles = new Map<number, Promise<Buffer>>();

/**
 * Renders an SVG to raw RGBA (no PNG encode and decode per layer). Layers that repeat across
 * looks (masks, vignettes) are kept after the first render; one-off backdrops are not, since
 * each rendering holds 3 MB until seeding ends.
 */
function render(svgText: string, keep = false): Promise<Rgba> {
  const kept = rendered.get(svgText);
  if (kept) return kept;
  const pixels = rgba(sharp(Buffer.from(svgText)));
  if (keep) rendered.set(svgText, pixels);
  return pixels;
}

/** Raw RGBA; `alpha` is the opacity given to a picture that has no alpha channel yet. */
async function rgba(image: Sharp, alpha = 1): Promise<Rgba> {
  const { data, info } = await image.ensureAlpha(alpha).raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

/** A composite input from raw RGBA pixels. */
function rawInput(pixels: Rgba, blend: Blend = 'over') {
  return {
    input: pixels.data,
    raw: { width: pixels.width, height: pixels.height, channels: 4 as const },
    blend,
    top: 0,
    left: 0,
  };
}

/** Forgets rendered SVGs and noise (after seeding, so the memory goes back). */
export function clearRenderCache(): void {
  rendered.clear();
  noiseTiles.clear();
}

export interface Layer {
  svg: string;
  blend?: Blend;
  /** Used by many looks: render it once. */
  reused?: boolean;
}

/** Composites SVG layers drawn at the picture's size (light, frames, grids, sparkles, text). */
export async function overlay(pixels: Pixels, ...layers: Layer[]): Promise<Pixels> {
  return collect(
    pipeline(pixels).composite(
      await Promise.all(
        layers.map(async (layer) => rawInput(await render(layer.svg, layer.reused), layer.blend)),
      ),
    ),
  );
}

export interface Ellipse {
  cx: number;
  cy: number;
  rx: number;
  ry: number;
}

/** Head and shoulders on the 4:5 canvas, as shares of its width and height. */
const portraitEllipse: Ellipse = { cx: 0.5, cy: 0.5, rx: 0.42, ry: 0.5 };

/** The portrait kept through a soft oval: opaque inside `solid` of the radius, fading to clear at the edge. */
async function cutOut(pixels: Pixels, ellipse: Ellipse, solid: number): Promise<Rgba> {
  const e = ellipse;
  const mask = svg(
    pixels.width,
    pixels.height,
    `<defs><radialGradient id="m" cx="${e.cx}" cy="${e.cy}" r="0.5" gradientUnits="objectBoundingBox"
      gradientTransform="translate(${e.cx} ${e.cy}) scale(${e.rx * 2} ${e.ry * 2}) translate(${-e.cx} ${-e.cy})">
      <stop offset="${Math.round(solid * 100)}%" stop-color="#fff" stop-opacity="1"/>
      <stop offset="100%" stop-color="#fff" stop-opacity="0"/></radialGradient></defs>
      <rect width="100%" height="100%" fill="url(#m)"/>`,
  );
  return rgba(pipeline(pixels).composite([rawInput(await render(mask, true), 'dest-in')]));
}

export interface BackdropOptions {
  /** The backdrop: an SVG at canvas size. */
  svg: string;
  /** The kept portrait (shares of the canvas); outside it the backdrop shows. */
  ellipse?: Ellipse;
  /** Where the fade to the backdrop starts, as a share of the ellipse radius (0..1). */
  solid?: number;
}

/**
 * Places the portrait on a new backdrop through a soft oval mask: the studio vignette look.
 * Without segmentation the photo's own background fades out rather than being cut away.
 */
export async function onBackdrop(pixels: Pixels, options: BackdropOptions): Promise<Pixels> {
  const cutout = await cutOut(pixels, options.ellipse ?? portraitEllipse, options.solid ?? 0.55);
  const backdrop = await render(options.svg);
  return collect(
    sharp(backdrop.data, {
      raw: { width: backdrop.width, height: backdrop.height, channels: 4 },
    }).composite([rawInput(cutout)]),
  );
}

/**
 * Portrait-mode depth of field: the photo's own background blurred (and optionally lit by
 * layers such as bokeh), the face kept sharp through a wide, soft oval.
 */
export async function depthOfField(
  pixels: Pixels,
  options: { sigma?: number; background?: Layer[]; ellipse?: Ellipse; solid?: number } = {},
): Promise<Pixels> {
  const blurred = await collect(pipeline(pixels).blur(options.sigma ?? 14));
  const background = options.background?.length
    ? await overlay(blurred, ...options.background)
    : blurred;
  const subject = await cutOut(
    pixels,
    options.ellipse ?? { cx: 0.5, cy: 0.5, rx: 0.46, ry: 0.56 },
    options.solid ?? 0.6,
  );
  return collect(pipeline(background).composite([rawInput(subject)]));
}

/** Darkens (or tints) the edges. */
export function vignette(strength = 0.55, colour = '#000'): Layer {
  return {
    reused: true,
    svg: drawing(
      `<defs><radialGradient id="v" cx="50%" cy="45%" r="75%">
        <stop offset="55%" stop-color="${colour}" stop-opacity="0"/>
        <stop offset="100%" stop-color="${colour}" stop-opacity="${strength}"/></radialGradient></defs>
        <rect width="100%" height="100%" fill="url(#v)"/>`,
    ),
  };
}

/** A soft blurred copy screened over the picture: the diffusion-filter glow of old lenses. */
export async function glow(pixels: Pixels, sigma = 12, strength = 0.45): Promise<Pixels> {
  const blurred = await rgba(pipeline(pixels).blur(sigma), strength);
  return collect(pipeline(pixels).composite([rawInput(blurred, 'screen')]));
}

/** Film grain: a tile of gaussian noise, repeated and laid over with soft light. */
export async function grain(pixels: Pixels, sigma = 18): Promise<Pixels> {
  // Noise over the whole canvas costs more than the rest of a look; one small tile is enough.
  let tile = noiseTiles.get(sigma);
  if (!tile) {
    tile = noiseTile(192, sigma);
    noiseTiles.set(sigma, tile);
  }
  return collect(
    pipeline(pixels).composite([
      { input: await tile, blend: 'soft-light', tile: true, top: 0, left: 0 },
    ]),
  );
}

/**
 * Gaussian noise around mid-grey from our seeded sequence rather than libvips' own noise, which
 * differs on every run: the same seed content comes out the same everywhere, and what is measured
 * on it (the local engine's likeness on a grainy preset) does not drift between runs.
 */
function noiseTile(size: number, sigma: number): Promise<Buffer> {
  const next = random(size * 1000 + sigma);
  const data = Buffer.alloc(size * size * 3);
  for (let i = 0; i < data.length; i += 2) {
    // Box-Muller: two uniform numbers give two independent normal ones.
    const radius = Math.sqrt(-2 * Math.log(1 - next())) * sigma;
    const angle = 2 * Math.PI * next();
    data[i] = Math.max(0, Math.min(255, Math.round(128 + radius * Math.cos(angle))));
    if (i + 1 < data.length) {
      data[i + 1] = Math.max(0, Math.min(255, Math.round(128 + radius * Math.sin(angle))));
    }
  }
  return sharp(data, { raw: { width: size, height: size, channels: 3 } })
    .png()
    .toBuffer();
}

/** A painterly softening: fine detail blurred away, then the edges sharpened back hard. */
export async function paint(pixels: Pixels, strength = 2.2): Promise<Pixels> {
  return collect(pipeline(pixels).blur(strength).sharpen({ sigma: 2, m1: 0, m2: 3 }));
}

export async function soften(pixels: Pixels, sigma = 2.5, strength = 0.5): Promise<Pixels> {
  const blurred = await rgba(pipeline(pixels).blur(sigma), strength);
  return collect(pipeline(pixels).composite([rawInput(blurred)]));
}

/** Shifts the red channel sideways: the colour fringing of a worn VHS tape. */
export function chromaShift(pixels: Pixels, offset = 6): Pixels {
  const { width, height, data } = pixels;
  const out = Buffer.from(data);
  for (let y = 0; y < height; y++) {
    const row = y * width * 3;
    for (let x = 0; x < width; x++) {
      out[row + x * 3] = data[row + Math.max(0, x - offset) * 3]!;
    }
  }
  return { data: out, width, height };
}

/** Crisp micro-contrast (the over-processed "HDR" look). */
export async function crisp(pixels: Pixels): Promise<Pixels> {
  return collect(pipeline(pixels).sharpen({ sigma: 2.5, m1: 1.5, m2: 4 }));
}

/** Two pictures side by side on one canvas (the "two people" example). */
export async function sideBySide(left: Pixels, right: Pixels): Promise<Pixels> {
  const half = Math.round(canvas.width / 2);
  const [a, b] = await Promise.all(
    [left, right].map((p) =>
      pipeline(p).resize(half, canvas.height, { fit: 'cover' }).png().toBuffer(),
    ),
  );
  return collect(
    sharp({
      create: { width: canvas.width, height: canvas.height, channels: 3, background: '#888' },
    }).composite([
      { input: a!, left: 0, top: 0 },
      { input: b!, left: half, top: 0 },
    ]),
  );
}

/** An SVG document of the given pixel size, drawn in the given coordinate space. */
export function svg(
  width: number,
  height: number,
  body: string,
  space: { width: number; height: number } = { width, height },
): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${space.width} ${space.height}">${body}</svg>`;
}

/** A canvas-size SVG drawn in design coordinates. */
export function drawing(body: string): string {
  return svg(canvas.width, canvas.height, body, design);
}

/** A full-canvas SVG layer. */
export function layer(body: string, blend: Blend = 'over'): Layer {
  return { svg: drawing(body), blend };
}

/** A deterministic pseudo-random sequence, so decorations (bokeh, sparkles) land the same every time. */
export function random(seed: number): () => number {
  let state = seed >>> 0 || 1;
  return () => {
    state ^= state << 13;
    state >>>= 0;
    state ^= state >>> 17;
    state ^= state << 5;
    state >>>= 0;
    return state / 0x100000000;
  };
}
