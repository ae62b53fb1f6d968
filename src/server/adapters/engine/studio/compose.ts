import type { RgbImage } from '../../../images/rgb-image.ts';
import type { FaceLandmarks } from '../../../images/faces.ts';
import { blur, fromLinear, labToRgb, rgbToLab, smoothstep, toLinear } from './pixels.ts';
import type { Framing, Rgb, Scene } from './scene.ts';

/**
 * The compositor of the offline studio engine: it puts the person cut out of one of the user's
 * photos into a painted backdrop as a photographer would have lit them there.
 *
 * 1. Places the person by the scene's framing: the eyes at a set height and a set distance
 *    apart, the eye line levelled, zoomed further when the photo's own edges would show.
 * 2. Relights them in linear light: the photo's colour cast is partly neutralised and replaced
 *    by the scene's key and ambient light, exposure is brought to the scene's, the key light
 *    falls off across the body from its side, and a rim light outlines the far edge.
 * 3. Dyes the clothes when the scene asks for a colour (below the chin, not skin).
 * 4. Casts a soft shadow on backdrops that stand close behind (studio paper, walls), wraps the
 *    backdrop's light around the person's edges and blends through the soft matte.
 */

/** A person cut out of one photo: the photo (or a part of it), its matte and its face. */
export interface Cutout {
  image: RgbImage;
  /** 0-255 per pixel, the image's size. */
  alpha: Uint8Array;
  landmarks: FaceLandmarks;
}

export const compositionRules = {
  /**
   * Per framing: the distance between the eyes and the height of the eye line, as shares of the
   * canvas width and height. A portrait photographer's head-and-shoulders has the eyes about a
   * third of the way down.
   */
  framing: {
    headshot: { eyeDistance: 0.2, eyeLine: 0.4 },
    portrait: { eyeDistance: 0.15, eyeLine: 0.37 },
    'half-body': { eyeDistance: 0.11, eyeLine: 0.31 },
  } satisfies Record<Framing, { eyeDistance: number; eyeLine: number }>,
  /**
   * The person is zoomed in further, up to this eye distance (× canvas width: a tight headshot),
   * so the photo's edges that cut the body stay out of frame; a close selfie makes a closer
   * picture than the framing asks for. Edges still in frame then fade out (`sideFade`).
   */
  maxEyeDistance: 0.23,
  /** Only this share of the head's tilt is levelled: a slight tilt is part of a pose. */
  levelling: 0.7,
  /**
   * The photo's edges fade out over this share of the canvas width: the top (hair reaching the
   * photo's top) briefly, the sides and bottom (the body cut by the photo's frame) broadly, so
   * the body dissolves into the scene as in a painted bust rather than ending in a line.
   */
  topFade: 0.02,
  sideFade: 0.12,
  /** Below the photo, the body's colour turns plain over this share of the photo's height… */
  extensionBlend: 0.05,
  /** …and has faded out completely this far below it (× the photo's height). */
  extensionFade: 0.3,
  /** Matte edges take their colour from the person just inside (× eye distance on the canvas). */
  decontaminate: 0.12,
  /** How much of the photo's own colour cast is taken out before the scene's light is applied. */
  neutralise: 0.3,
  /**
   * How much the light's colour tints the person: skin lit by a coloured light keeps much of
   * its own colour (a full tint turns faces purple in space and cyan under water).
   */
  keyTint: 0.3,
  ambientTintAmount: 0.2,
  /** Linear-light exposure the person's mid-tones are brought towards, per time of day. */
  exposure: { day: 0.2, golden: 0.19, dusk: 0.17, night: 0.15 } satisfies Record<
    Scene['time'],
    number
  >,
  /**
   * Exposure changes are capped so a dark photo is not pushed into noise, and kept mild: a face
   * brightened or darkened much further than its photo loses the likeness (measured: 3 % of the
   * likeness score at 0.6 to 1.6).
   */
  maxExposureGain: 1.35,
  minExposureGain: 0.8,
  /** The key light's fall-off across the body at full strength: lit side gain, shaded side gain. */
  keyLit: 1.25,
  keyShade: 0.65,
  /** Width of the rim light and the light wrap, × the eye distance on the canvas. */
  rimWidth: 0.15,
  wrapWidth: 0.18,
  /** The rim light's share that reaches even a black surface (the rest scales with its colour). */
  rimFloor: 0.1,
  wrapStrength: 0.2,
  /** Shadow on a close backdrop: offset and blur (× eye distance) and darkness. */
  shadow: { offset: 0.5, blur: 0.9, darkness: 0.38 },
  /** Places whose backdrop stands right behind the person, so they cast a shadow on it. */
  shadowPlaces: ['studio', 'gallery', 'stage'] as readonly Scene['place'][],
  /** Clothes start this far below the mouth (× the eyes-to-mouth distance). */
  clothesBelowMouth: 1.1,
  /** A pixel is skin when its Lab distance to the face's skin is below `near`, fully by `far`. */
  skin: { near: 14, far: 26 },
  /** How much of the clothes' own lightness variation the dye keeps (folds, light). */
  dyeKeepsLightness: 0.55,
  /**
   * Clothes whose typical chroma (a*b* length, the median over the clothes) reaches this are a
   * coloured fabric: the dye takes the parts of that colour (Lab a*b* distance below `near`,
   * none from `far`) and leaves the rest as it is (a black collar, a metal ring, a printed logo).
   * Neutral clothes (black, grey, white) are dyed whole.
   */
  dyeFabric: { minChroma: 14, near: 18, far: 34 },
  /** Dyed lightness stays this far inside black and white, so folds show on white and black. */
  dyeLightnessRoom: { dark: 6, light: 97 },
} as const;

/** x' = a·x − b·y + tx, y' = b·x + a·y + ty. */
interface Similarity {
  a: number;
  b: number;
  tx: number;
  ty: number;
}

function apply(t: Similarity, [x, y]: readonly [number, number]): [number, number] {
  return [t.a * x - t.b * y + t.tx, t.b * x + t.a * y + t.ty];
}

function invert(t: Similarity): Similarity {
  const d = t.a * t.a + t.b * t.b || 1;
  const a = t.a / d;
  const b = -t.b / d;
  return { a, b, tx: -(a * t.tx - b * t.ty), ty: -(b * t.tx + a * t.ty) };
}

interface FaceGeometry {
  eyeMid: [number, number];
  eyeDistance: number;
  /** The eye line's angle, radians (0 = level). */
  roll: number;
  /** Eyes-to-mouth distance. */
  down: number;
}

function faceGeometry(landmarks: FaceLandmarks): FaceGeometry {
  const { leftEye, rightEye, mouth } = landmarks;
  const dx = rightEye[0] - leftEye[0];
  const dy = rightEye[1] - leftEye[1];
  const eyeMid: [number, number] = [(leftEye[0] + rightEye[0]) / 2, (leftEye[1] + rightEye[1]) / 2];
  return {
    eyeMid,
    eyeDistance: Math.hypot(dx, dy) || 1,
    roll: Math.atan2(dy, dx),
    down: Math.hypot(mouth[0] - eyeMid[0], mouth[1] - eyeMid[1]) || 1,
  };
}

/** Does the matte reach this edge of the photo (the person is cut off there)? */
function touchesEdge(cutout: Cutout, edge: 'left' | 'right' | 'bottom' | 'top'): boolean {
  const { width, height } = cutout.image;
  const alpha = cutout.alpha;
  let sum = 0;
  const count = edge === 'left' || edge === 'right' ? height : width;
  for (let k = 0; k < count; k++) {
    const x = edge === 'left' ? 0 : edge === 'right' ? width - 1 : k;
    const y = edge === 'top' ? 0 : edge === 'bottom' ? height - 1 : k;
    sum += alpha[y * width + x]! > 128 ? 1 : 0;
  }
  // A few percent of an edge is stray matte; a body cut by the frame covers much more.
  return sum / count > 0.04;
}

/**
 * Where the person goes on the canvas: the similarity transform from the cutout's pixels to the
 * canvas's. The eyes land where the framing wants them; if an edge of the photo that cuts the
 * person would show inside the canvas, the person is zoomed in about the eyes until it does not
 * (up to `maxEdgeZoom`).
 */
export function placePerson(
  cutout: Cutout,
  framing: Framing,
  width: number,
  height: number,
): Similarity {
  const rules = compositionRules;
  const face = faceGeometry(cutout.landmarks);
  const want = rules.framing[framing];
  const eyeTarget: [number, number] = [width / 2, height * want.eyeLine];
  const rotation = -face.roll * rules.levelling;
  const place = (scale: number): Similarity => {
    const a = scale * Math.cos(rotation);
    const b = scale * Math.sin(rotation);
    const [mx, my] = face.eyeMid;
    return { a, b, tx: eyeTarget[0] - (a * mx - b * my), ty: eyeTarget[1] - (b * mx + a * my) };
  };
  let scale = (want.eyeDistance * width) / face.eyeDistance;
  const { width: w, height: h } = cutout.image;
  const cut = {
    left: touchesEdge(cutout, 'left'),
    right: touchesEdge(cutout, 'right'),
    bottom: touchesEdge(cutout, 'bottom'),
  };
  const shows = (t: Similarity): boolean => {
    const corners = [apply(t, [0, 0]), apply(t, [w, 0]), apply(t, [0, h]), apply(t, [w, h])];
    const xs = corners.map((c) => c[0]);
    const ys = corners.map((c) => c[1]);
    return (
      (cut.left && Math.max(...xs.filter((_, i) => i % 2 === 0)) > 0) ||
      (cut.right && Math.min(...xs.filter((_, i) => i % 2 === 1)) < width) ||
      (cut.bottom && Math.min(ys[2]!, ys[3]!) < height)
    );
  };
  const limit = Math.max(scale, (rules.maxEyeDistance * width) / face.eyeDistance);
  while (shows(place(scale)) && scale < limit) scale *= 1.04;
  return place(Math.min(scale, limit));
}

/** Bilinear sample of the cutout at continuous pixel coordinates: RGB into `out`, alpha returned. */
function sample(cutout: Cutout, x: number, y: number, out: [number, number, number]): number {
  const { width, height, data } = cutout.image;
  if (x < -0.5 || y < -0.5 || x > width - 0.5 || y > height - 0.5) return 0;
  const cx = Math.max(0, Math.min(width - 1, x));
  const cy = Math.max(0, Math.min(height - 1, y));
  const x0 = Math.floor(cx);
  const y0 = Math.floor(cy);
  const x1 = Math.min(width - 1, x0 + 1);
  const y1 = Math.min(height - 1, y0 + 1);
  const fx = cx - x0;
  const fy = cy - y0;
  const w00 = (1 - fx) * (1 - fy);
  const w10 = fx * (1 - fy);
  const w01 = (1 - fx) * fy;
  const w11 = fx * fy;
  const i00 = y0 * width + x0;
  const i10 = y0 * width + x1;
  const i01 = y1 * width + x0;
  const i11 = y1 * width + x1;
  for (let c = 0; c < 3; c++)
    out[c] =
      data[i00 * 3 + c]! * w00 +
      data[i10 * 3 + c]! * w10 +
      data[i01 * 3 + c]! * w01 +
      data[i11 * 3 + c]! * w11;
  const a = cutout.alpha;
  return (a[i00]! * w00 + a[i10]! * w10 + a[i01]! * w01 + a[i11]! * w11) / 255;
}

/** A tint's gains moved `amount` of the way from white (1, 1, 1). */
function softened(tint: [number, number, number], amount: number): [number, number, number] {
  return [1 + (tint[0] - 1) * amount, 1 + (tint[1] - 1) * amount, 1 + (tint[2] - 1) * amount];
}

/**
 * The matte's soft edge still holds the photo's old background mixed into the person's colour
 * (a grey halo round the hair): there the colour is taken from the person just inside, a blur
 * weighted by the matte's cube so opaque pixels dominate.
 */
function decontaminateEdges(
  person: Float32Array,
  alpha: Float32Array,
  width: number,
  height: number,
  radius: number,
): void {
  const size = width * height;
  const weight = new Float32Array(size);
  const weighted = new Float32Array(size * 3);
  for (let i = 0; i < size; i++) {
    const w = alpha[i]! ** 3;
    weight[i] = w;
    for (let c = 0; c < 3; c++) weighted[i * 3 + c] = person[i * 3 + c]! * w;
  }
  const r = Math.max(1.5, radius);
  const weightBlur = blur(weight, width, height, 1, r);
  const colourBlur = blur(weighted, width, height, 3, r);
  for (let i = 0; i < size; i++) {
    const a = alpha[i]!;
    if (a <= 0 || a >= 0.97 || weightBlur[i]! < 1e-4) continue;
    const keep = smoothstep(0.4, 0.97, a);
    for (let c = 0; c < 3; c++)
      person[i * 3 + c] =
        person[i * 3 + c]! * keep + (colourBlur[i * 3 + c]! / weightBlur[i]!) * (1 - keep);
  }
}

/** 1 inside the face (eyebrows to chin, cheek to cheek), fading to 0 just outside it. */
function insideFace(face: FaceGeometry, x: number, y: number): number {
  const r = Math.hypot(
    (x - face.eyeMid[0]) / (face.eyeDistance * 1.2),
    (y - face.eyeMid[1] - face.down * 0.45) / (face.down * 2),
  );
  return 1 - smoothstep(0.8, 1.15, r);
}

/** The mean colour of a row's opaque pixels (the clothes where the photo cuts them). */
function meanColourOfRow(cutout: Cutout, y: number): [number, number, number] {
  const { width, data } = cutout.image;
  const sum = [0, 0, 0];
  let count = 0;
  for (let x = 0; x < width; x++) {
    if (cutout.alpha[y * width + x]! < 128) continue;
    for (let c = 0; c < 3; c++) sum[c]! += data[(y * width + x) * 3 + c]!;
    count++;
  }
  return count > 0 ? [sum[0]! / count, sum[1]! / count, sum[2]! / count] : [128, 128, 128];
}

/** `sample` averaged over five taps across `spread` pixels of the row (a sideways blur). */
function sampleSmoothed(
  cutout: Cutout,
  x: number,
  y: number,
  spread: number,
  out: [number, number, number],
): number {
  const tap: [number, number, number] = [0, 0, 0];
  let alpha = 0;
  out[0] = out[1] = out[2] = 0;
  for (let k = -2; k <= 2; k++) {
    alpha += sample(cutout, x + (k * spread) / 2, y, tap) / 5;
    for (let c = 0; c < 3; c++) out[c]! += tap[c]! / 5;
  }
  return alpha;
}

/** Relative luminance of a linear RGB colour. */
function luminance(r: number, g: number, b: number): number {
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** A colour's chromaticity as gains with luminance 1 (so it tints without changing exposure). */
function tintOf(colour: Rgb): [number, number, number] {
  const lin = colour.map((v) => toLinear(v)) as [number, number, number];
  const y = luminance(...lin) || 1;
  return [lin[0] / y, lin[1] / y, lin[2] / y];
}

export interface Composition {
  image: RgbImage;
  /** Where the person is on the canvas, 0-1 per pixel. */
  personAlpha: Float32Array;
  /** The face's landmarks on the canvas. */
  landmarks: FaceLandmarks;
}

/**
 * The person composed into the backdrop. `ambient` is the colour of the backdrop's light (from
 * the painter); the backdrop itself is not changed.
 */
export function composePerson(
  backdrop: RgbImage,
  cutout: Cutout,
  scene: Scene,
  ambient: Rgb,
): Composition {
  const rules = compositionRules;
  const { width, height } = backdrop;
  const size = width * height;
  const toCanvas = placePerson(cutout, scene.framing, width, height);
  const toCutout = invert(toCanvas);
  const scale = Math.hypot(toCanvas.a, toCanvas.b);
  const face = faceGeometry(cutout.landmarks);
  const eyeDistance = face.eyeDistance * scale;
  const landmarks: FaceLandmarks = {
    leftEye: apply(toCanvas, cutout.landmarks.leftEye),
    rightEye: apply(toCanvas, cutout.landmarks.rightEye),
    nose: apply(toCanvas, cutout.landmarks.nose),
    mouth: apply(toCanvas, cutout.landmarks.mouth),
  };
  const canvasFace = faceGeometry(landmarks);

  // 1. The warped person in linear light, and their matte, on the canvas.
  const person = new Float32Array(size * 3);
  const alpha = new Float32Array(size);
  const topFade = Math.max(1, rules.topFade * width) / scale;
  const sideFade = Math.max(1, rules.sideFade * width) / scale;
  const rgb: [number, number, number] = [0, 0, 0];
  const { width: cw, height: ch } = cutout.image;
  const extendDown = touchesEdge(cutout, 'bottom');
  const bottomColour = meanColourOfRow(cutout, ch - 1);
  let minX = width;
  let maxX = 0;
  let minY = height;
  let maxY = 0;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const [sx, sy] = apply(toCutout, [x + 0.5, y + 0.5]);
      // Below a photo that cuts the body, the body goes on: its last row, smoothed sideways and
      // turning into the clothes' mean colour further down, so the clothes continue out of
      // frame instead of ending in a line (or smearing a necklace down the picture).
      const below = extendDown ? sy - (ch - 1.5) : 0;
      let a: number;
      if (below > 0) {
        a = sampleSmoothed(cutout, sx - 0.5, ch - 1.5, Math.min(below, cw * 0.08), rgb);
        const plain = smoothstep(0, ch * rules.extensionBlend, below);
        for (let c = 0; c < 3; c++) rgb[c] = rgb[c]! + (bottomColour[c]! - rgb[c]!) * plain;
        // and dissolves into the scene the further it goes, as in a vignetted bust.
        a *= 1 - smoothstep(0, ch * rules.extensionFade, below);
      } else a = sample(cutout, sx - 0.5, sy - 0.5, rgb);
      if (a <= 0.002) continue;
      // The photo's other borders, where they cut the person, fade rather than end in a line.
      const border = Math.min(
        sy / topFade,
        Math.min(sx, cw - sx, extendDown ? Infinity : ch - sy) / sideFade,
      );
      const i = y * width + x;
      alpha[i] = a * Math.min(1, Math.max(0, border));
      person[i * 3] = toLinear(rgb[0]);
      person[i * 3 + 1] = toLinear(rgb[1]);
      person[i * 3 + 2] = toLinear(rgb[2]);
      if (alpha[i]! > 0.5) {
        minX = Math.min(minX, x);
        maxX = Math.max(maxX, x);
        minY = Math.min(minY, y);
        maxY = Math.max(maxY, y);
      }
    }
  }

  decontaminateEdges(person, alpha, width, height, eyeDistance * rules.decontaminate);

  // 2. The photo's own light, measured before any dye: a dyed coat is not the photo's cast.
  let sumR = 0;
  let sumG = 0;
  let sumB = 0;
  let weight = 0;
  for (let i = 0; i < size; i++) {
    const a = alpha[i]!;
    if (a < 0.5) continue;
    sumR += person[i * 3]!;
    sumG += person[i * 3 + 1]!;
    sumB += person[i * 3 + 2]!;
    weight++;
  }

  // 3. The clothes dyed, when the scene asks for a colour (in sRGB Lab, before relighting).
  if (scene.clothing)
    dyeClothes(person, alpha, width, height, landmarks, face, scale, scene.clothing);

  // 4. Relight: neutralise the photo's cast, expose for the scene, tint with its light.
  if (weight > 0) {
    const mean = [sumR / weight, sumG / weight, sumB / weight] as const;
    const meanY = luminance(...mean) || 1e-3;
    const key = softened(tintOf(scene.light.colour), rules.keyTint);
    const ambientTint = softened(tintOf(ambient), rules.ambientTintAmount);
    const exposure = Math.min(
      rules.maxExposureGain,
      Math.max(rules.minExposureGain, Math.sqrt(rules.exposure[scene.time] / meanY)),
    );
    const neutral = [0, 1, 2].map(
      (c) => (1 + rules.neutralise * (meanY / Math.max(1e-3, mean[c]!) - 1)) * exposure,
    );
    const strength = scene.light.strength;
    const spanX = Math.max(1, maxX - minX);
    const spanY = Math.max(1, maxY - minY);
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        const i = y * width + x;
        if (alpha[i]! <= 0) continue;
        // -1 on the shaded side to 1 on the lit side.
        const along =
          scene.light.direction === 'left'
            ? 1 - (2 * (x - minX)) / spanX
            : scene.light.direction === 'right'
              ? (2 * (x - minX)) / spanX - 1
              : scene.light.direction === 'top'
                ? 1 - (2 * (y - minY)) / spanY
                : 1 - Math.abs((2 * (x - minX)) / spanX - 1);
        const t = Math.max(-1, Math.min(1, along));
        const keyGain = 1 + strength * (t > 0 ? (rules.keyLit - 1) * t : (1 - rules.keyShade) * t);
        // The lit side takes the key light's colour, the shaded side the scene's ambient light.
        const keyShare = 0.5 + 0.5 * t * strength;
        for (let c = 0; c < 3; c++) {
          const light = key[c]! * keyShare + ambientTint[c]! * (1 - keyShare);
          person[i * 3 + c]! *= neutral[c]! * light * keyGain;
        }
      }
    }
  }

  // 5. Rim light on the far edge, and the backdrop's light wrapped around every edge.
  const rimRadius = Math.max(1.5, eyeDistance * rules.rimWidth);
  const inner = blur(alpha, width, height, 1, rimRadius);
  const backLinear = new Float32Array(size * 3);
  for (let i = 0; i < size * 3; i++) backLinear[i] = toLinear(backdrop.data[i]!);
  const wrapSource = blur(
    backLinear,
    width,
    height,
    3,
    Math.max(2, eyeDistance * rules.wrapWidth * 2),
  );
  const rim = scene.rim && tintOf(scene.rim.colour);
  const rimFromLeft = scene.light.direction === 'right';
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = y * width + x;
      const a = alpha[i]!;
      if (a <= 0) continue;
      // Near the silhouette's edge: the matte is full but its blur is not.
      const edge = Math.max(0, Math.min(1, (a - inner[i]!) * 2.5));
      if (edge <= 0) continue;
      // Not across the face either: the backdrop's light there blurs the cheeks' outline.
      const wrap = edge * rules.wrapStrength * (1 - insideFace(canvasFace, x + 0.5, y + 0.5));
      for (let c = 0; c < 3; c++)
        person[i * 3 + c] = person[i * 3 + c]! * (1 - wrap) + wrapSource[i * 3 + c]! * wrap;
      if (rim && scene.rim) {
        // Strongest on the side away from the key light and along the top of the head.
        const side = (x - (minX + maxX) / 2) / Math.max(1, (maxX - minX) / 2);
        const away =
          scene.light.direction === 'front' || scene.light.direction === 'top'
            ? Math.abs(side)
            : Math.max(0, rimFromLeft ? -side : side);
        const top = y < (minY + maxY) / 2 ? 0.5 : 0;
        // Never across the face itself (a close selfie's silhouette runs along the cheeks):
        // a rim there hides the features the likeness rests on.
        const amount =
          edge *
          scene.rim.strength *
          Math.min(1, 0.35 + away + top) *
          0.6 *
          (1 - insideFace(canvasFace, x + 0.5, y + 0.5));
        // Light added in proportion to what the surface gives back: skin and pale clothes shine
        // at the edge, dark hair only glints (an even band of light turns it into a grey cap).
        for (let c = 0; c < 3; c++)
          person[i * 3 + c]! += rim[c]! * amount * (rules.rimFloor + person[i * 3 + c]!);
      }
    }
  }

  // 6. A soft shadow on a close backdrop, then the blend.
  const out = Buffer.from(backdrop.data);
  if (rules.shadowPlaces.includes(scene.place)) {
    const shadowBlur = blur(alpha, width, height, 1, Math.max(2, eyeDistance * rules.shadow.blur));
    const dx = Math.round(
      eyeDistance *
        rules.shadow.offset *
        (scene.light.direction === 'left' ? 1 : scene.light.direction === 'right' ? -1 : 0),
    );
    const dy = Math.round(eyeDistance * rules.shadow.offset * 0.4);
    const darkness = rules.shadow.darkness * (0.4 + 0.6 * scene.light.strength);
    for (let y = 0; y < height; y++) {
      const sy = y - dy;
      if (sy < 0 || sy >= height) continue;
      for (let x = 0; x < width; x++) {
        const sx = x - dx;
        if (sx < 0 || sx >= width) continue;
        const s = shadowBlur[sy * width + sx]! * darkness;
        if (s <= 0.001) continue;
        const o = (y * width + x) * 3;
        for (let c = 0; c < 3; c++) out[o + c] = Math.round(out[o + c]! * (1 - s));
      }
    }
  }
  for (let i = 0; i < size; i++) {
    const a = alpha[i]!;
    if (a <= 0) continue;
    const o = i * 3;
    for (let c = 0; c < 3; c++) {
      const back = toLinear(out[o + c]!);
      out[o + c] = Math.round(fromLinear(person[o + c]! * a + back * (1 - a)));
    }
  }
  return { image: { data: out, width, height }, personAlpha: alpha, landmarks };
}

/**
 * Dyes the clothes towards `colour`: below the chin, inside the matte, wherever the pixel is not
 * like the face's skin and, on a coloured fabric, is of the fabric's colour. The new colour keeps
 * part of the old lightness, so folds and light stay.
 */
function dyeClothes(
  person: Float32Array,
  alpha: Float32Array,
  width: number,
  height: number,
  landmarks: FaceLandmarks,
  face: FaceGeometry,
  scale: number,
  colour: Rgb,
): void {
  const rules = compositionRules;
  const down = face.down * scale;
  const eyeDistance = face.eyeDistance * scale;
  const startY = landmarks.mouth[1] + down * rules.clothesBelowMouth;
  const lab: [number, number, number] = [0, 0, 0];
  const toSrgb = (i: number): [number, number, number] => [
    fromLinear(person[i * 3]!),
    fromLinear(person[i * 3 + 1]!),
    fromLinear(person[i * 3 + 2]!),
  ];
  // The skin's colour: the cheeks, between the eyes and the mouth.
  const skin = [0, 0, 0];
  let skinCount = 0;
  const cx = (landmarks.leftEye[0] + landmarks.rightEye[0]) / 2;
  const cy = (landmarks.leftEye[1] + landmarks.mouth[1]) / 2;
  const r = Math.max(2, Math.round(eyeDistance * 0.25));
  for (let y = Math.round(cy - r); y <= cy + r; y++)
    for (let x = Math.round(cx - r * 2); x <= cx + r * 2; x++) {
      if (x < 0 || y < 0 || x >= width || y >= height) continue;
      const i = y * width + x;
      if (alpha[i]! < 0.5) continue;
      rgbToLab(...toSrgb(i), lab);
      for (let c = 0; c < 3; c++) skin[c]! += lab[c]!;
      skinCount++;
    }
  if (skinCount === 0) return;
  for (let c = 0; c < 3; c++) skin[c]! /= skinCount;
  const target: [number, number, number] = [0, 0, 0];
  rgbToLab(colour[0], colour[1], colour[2], target);

  // The clothes: below the chin, inside the matte, not like the face's skin.
  const mask = new Float32Array(width * height);
  const labs = new Float32Array(width * height * 3);
  const chromas: number[] = [];
  for (let y = Math.max(0, Math.floor(startY)); y < height; y++) {
    const ramp = Math.min(1, (y - startY) / Math.max(1, down * 0.5));
    for (let x = 0; x < width; x++) {
      const i = y * width + x;
      if (alpha[i]! < 0.3) continue;
      rgbToLab(...toSrgb(i), lab);
      const distance = Math.hypot((lab[0] - skin[0]!) * 0.6, lab[1] - skin[1]!, lab[2] - skin[2]!);
      const clothes = smoothstep(rules.skin.near, rules.skin.far, distance) * ramp;
      if (clothes <= 0) continue;
      mask[i] = clothes;
      labs.set(lab, i * 3);
      chromas.push(Math.hypot(lab[1], lab[2]));
    }
  }
  if (chromas.length === 0) return;
  const fabric = fabricColour(labs, mask, chromas);
  // The fabric's mean lightness, so the dye keeps its relative light and shade.
  let sumL = 0;
  let weightSum = 0;
  for (let i = 0; i < width * height; i++) {
    if (mask[i]! <= 0) continue;
    if (fabric) mask[i]! *= fabricWeight(labs, i, fabric);
    sumL += labs[i * 3]! * mask[i]!;
    weightSum += mask[i]!;
  }
  if (weightSum <= 0) return;
  const meanL = sumL / weightSum;
  const smooth = blur(mask, width, height, 1, Math.max(1, eyeDistance * 0.05));
  const keep = rules.dyeKeepsLightness;
  const { dark, light } = rules.dyeLightnessRoom;
  const above = Math.max(1, light - target[0]);
  const below = Math.max(1, target[0] - dark);
  const out: [number, number, number] = [0, 0, 0];
  for (let i = 0; i < width * height; i++) {
    const m = Math.min(mask[i]!, smooth[i]!) * 0.95;
    if (m <= 0.01) continue;
    // The clothes' light and shade around the new colour, eased into the room left above and
    // below it, so a white or black dye keeps its folds instead of clipping flat.
    const shade = (labs[i * 3]! - meanL) * keep;
    const l =
      shade >= 0
        ? target[0] + above * Math.tanh(shade / above)
        : target[0] - below * Math.tanh(-shade / below);
    labToRgb(l, target[1], target[2], out);
    for (let c = 0; c < 3; c++)
      person[i * 3 + c] = person[i * 3 + c]! * (1 - m) + toLinear(out[c]!) * m;
  }
}

/**
 * The fabric's colour (Lab a*, b*) when the clothes are coloured: the mask-weighted mean of the
 * clothes' more colourful half. Null for neutral clothes, which are dyed whole.
 */
function fabricColour(
  labs: Float32Array,
  mask: Float32Array,
  chromas: number[],
): [number, number] | null {
  const sorted = [...chromas].sort((p, q) => p - q);
  const median = sorted[Math.floor(sorted.length / 2)]!;
  if (median < compositionRules.dyeFabric.minChroma) return null;
  let a = 0;
  let b = 0;
  let weight = 0;
  for (let i = 0; i < mask.length; i++) {
    const m = mask[i]!;
    if (m <= 0 || Math.hypot(labs[i * 3 + 1]!, labs[i * 3 + 2]!) < median) continue;
    a += labs[i * 3 + 1]! * m;
    b += labs[i * 3 + 2]! * m;
    weight += m;
  }
  return weight > 0 ? [a / weight, b / weight] : null;
}

/** How much pixel `i` is of the fabric's colour: 1 near it, 0 for another colour or a neutral. */
function fabricWeight(labs: Float32Array, i: number, fabric: [number, number]): number {
  const { near, far } = compositionRules.dyeFabric;
  const distance = Math.hypot(labs[i * 3 + 1]! - fabric[0], labs[i * 3 + 2]! - fabric[1]);
  return 1 - smoothstep(near, far, distance);
}

/**
 * How much of the face's look before the finishing treatment comes back over the finished
 * picture: enough that a style never blurs or recolours away the features the likeness rests on,
 * little enough that the face still belongs to the picture. Monochrome styles keep their tones
 * (only the lightness comes back).
 */
export const faceProtection = {
  amount: 0.65,
  /** Treatments that tear the face's lines (a VHS tape's jitter and smear) give back more. */
  amountFor: { vhs: 0.85 } as Partial<Record<Scene['treatment'], number>>,
  lightnessOnly: ['mono', 'sepia', 'duotone', 'sketch'] as readonly Scene['treatment'][],
  /** The protected ellipse, × the eye distance: across and down from the eyes' midpoint. */
  radiusAcross: 1.7,
  radiusDown: 2.1,
  centreDown: 0.45,
};

export function protectFace(
  finished: RgbImage,
  before: RgbImage,
  landmarks: FaceLandmarks,
  treatment: Scene['treatment'],
  /** How much of the face is given back, instead of the treatment's share. */
  strength?: number,
): RgbImage {
  const rules = faceProtection;
  const face = faceGeometry(landmarks);
  const cx = face.eyeMid[0];
  const cy = face.eyeMid[1] + face.eyeDistance * rules.centreDown;
  const rx = face.eyeDistance * rules.radiusAcross;
  const ry = face.eyeDistance * rules.radiusDown;
  const { width, height } = finished;
  const out = Buffer.from(finished.data);
  const lightnessOnly = rules.lightnessOnly.includes(treatment);
  const amount = strength ?? rules.amountFor[treatment] ?? rules.amount;
  const p: [number, number, number] = [0, 0, 0];
  const q: [number, number, number] = [0, 0, 0];
  const rgb: [number, number, number] = [0, 0, 0];
  for (let y = Math.max(0, Math.floor(cy - ry)); y < Math.min(height, Math.ceil(cy + ry)); y++) {
    for (let x = Math.max(0, Math.floor(cx - rx)); x < Math.min(width, Math.ceil(cx + rx)); x++) {
      const r = Math.hypot((x + 0.5 - cx) / rx, (y + 0.5 - cy) / ry);
      if (r >= 1) continue;
      const k = amount * (1 - smoothstep(0.55, 1, r));
      const o = (y * width + x) * 3;
      if (lightnessOnly) {
        rgbToLab(out[o]!, out[o + 1]!, out[o + 2]!, p);
        rgbToLab(before.data[o]!, before.data[o + 1]!, before.data[o + 2]!, q);
        labToRgb(p[0] + (q[0] - p[0]) * k, p[1], p[2], rgb);
        for (let c = 0; c < 3; c++) out[o + c] = Math.round(rgb[c]!);
      } else {
        for (let c = 0; c < 3; c++)
          out[o + c] = Math.round(out[o + c]! + (before.data[o + c]! - out[o + c]!) * k);
      }
    }
  }
  return { data: out, width, height };
}
