// The composite faces average four people's photos: the aligned faces come out clean, but
// wherever the four differ there are translucent "ghosts": outlines of each hairstyle around the
// head, of each neck beside the jaw, and of each collar and pair of shoulders below. The
// segmentation model takes them for the person, and the engine's cut-out carried grey veils and
// layered collars into every scene. Before a composite is used, only the face and what lies
// clean around it are kept: ghost hair goes to the backdrop's colour, the jaw keeps the face
// mesh's outline, the neck is a column under it, and a plain crew-neck shirt is drawn over the
// averaged clothes.
import sharp from 'sharp';
import { analyzePhoto } from '../../src/server/images/faces.ts';

/** Lengths as shares of the eye-to-mouth distance (`em`) or of the eyes' distance (`iod`). */
const shape = {
  /** The hair's ellipse around the detector's box (shares of its size), feathered outwards. */
  hair: { radiusX: 0.36, radiusY: 0.5, feather: 0.25 },
  neckHalfWidth: 0.78, // iod
  collarBelowChin: 0.5, // em
  collarDepth: 0.25, // em: how far the neckline dips at the front
  /** Where the shoulders leave the neck, the radius of their curve (iod), then their slope. */
  shoulderCurve: 0.35,
  shoulderSlope: 0.16,
};
/** Ghost hair: light (from this luminance up, over a ramp) and nearly colourless. */
const ghost = { fromLuminance: 90, luminanceRamp: 50, maxChroma: 30, chromaRamp: 20 };
/** Hair hanging beside the jaw: darker than this luminance and with less chroma than skin. */
const darkHair = { belowLuminance: 70, luminanceRamp: 40, maxChroma: 22, chromaRamp: 10 };
const edgeColumns = 20;

export async function withoutGhosts(photo: Buffer): Promise<Buffer> {
  const { faces } = await analyzePhoto(photo);
  const face = faces[0];
  if (!face?.landmarks || face.outline.length < 8)
    throw new Error('no face found in the composite');
  const { box, landmarks, outline } = face;
  const { data: source, info } = await sharp(photo)
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const { width, height } = info;
  const output = Buffer.alloc(source.length);
  const at = (x: number, y: number) => (y * width + x) * 3;
  const eyeY = (landmarks.leftEye[1] + landmarks.rightEye[1]) / 2;
  const centreX = (landmarks.leftEye[0] + landmarks.rightEye[0]) / 2;
  const iod = landmarks.rightEye[0] - landmarks.leftEye[0];
  const mouthY = landmarks.mouth[1];
  const em = mouthY - eyeY;
  const chinY = Math.max(...outline.map(([, y]) => y));

  const backdrop = backdropOf(source, width, height, {
    cleanTo: Math.round(chinY - 0.4 * em),
    trendFrom: Math.round(chinY - 1.2 * em),
  });
  const faceSpans = Array.from({ length: height }, (_, y) => rowSpan(outline, y + 0.5));

  const neckHalf = shape.neckHalfWidth * iod;
  const collarTop = chinY + shape.collarBelowChin * em;
  const curve = shape.shoulderCurve * iod;
  const collarHalf = neckHalf + 0.25 * curve;
  /** The shirt's top edge at a distance from the centre, and whether the collar is there. */
  const shirtTop = (d: number): { top: number; collar: boolean } => {
    const neckline =
      d < collarHalf
        ? collarTop + shape.collarDepth * em * Math.sqrt(1 - (d / collarHalf) ** 2)
        : -Infinity;
    let shoulder = -Infinity;
    if (d > neckHalf + curve)
      shoulder = collarTop + curve + shape.shoulderSlope * (d - neckHalf - curve);
    else if (d > neckHalf)
      shoulder = collarTop + Math.sqrt(Math.max(0, curve ** 2 - (d - neckHalf - curve) ** 2));
    return { top: Math.max(neckline, shoulder), collar: neckline >= shoulder };
  };
  const shirt = shirtColour(source, width, height);
  const hairCentre = { x: box.x + box.width / 2, y: box.y + box.height / 2 };
  const hairRadius = { x: box.width * shape.hair.radiusX, y: box.height * shape.hair.radiusY };
  let seed = 1;
  const grain = () => ((seed = (seed * 16807) % 2147483647) / 2147483647 - 0.5) * 8;

  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const i = at(x, y);
      const [r, g, b] = [source[i]!, source[i + 1]!, source[i + 2]!];
      const luminance = 0.3 * r + 0.59 * g + 0.11 * b;
      const chroma = Math.max(r, g, b) - Math.min(r, g, b);
      const d = Math.abs(x - centreX);

      // Above the mouth, light colourless pixels outside the face's ellipse are ghost hair.
      const ellipse = Math.hypot(
        (x - hairCentre.x) / hairRadius.x,
        (y - hairCentre.y) / hairRadius.y,
      );
      const ghostHair =
        clamp01((ellipse - 1) / shape.hair.feather) *
        clamp01((luminance - ghost.fromLuminance) / ghost.luminanceRamp) *
        clamp01((ghost.maxChroma - chroma) / ghost.chromaRamp);
      // Below it the necks' outlines are skin-coloured: outside the face and the neck only dark
      // hair stays, fading out towards the chin.
      const span = faceSpans[y];
      const inFace = span ? clamp01((Math.min(x - span[0], span[1] - x) + 2) / 2 + 0.5) : 0;
      const inNeck = y > mouthY ? clamp01((neckHalf - d) / 3 + 0.5) : 0;
      const inside = Math.max(inFace, inNeck);
      const hair =
        (1 - clamp01((luminance - darkHair.belowLuminance) / darkHair.luminanceRamp)) *
        clamp01((darkHair.maxChroma - chroma) / darkHair.chromaRamp) *
        (1 - clamp01((y - mouthY) / (chinY - mouthY)));
      const below = clamp01((y - (mouthY - 0.2 * em)) / (0.4 * em));
      const keep = (1 - ghostHair) * (1 - below) + (inside + (1 - inside) * hair) * below;

      const { top, collar } = shirtTop(d);
      const shirtCover = clamp01((y - top) / 2 + 0.5);
      const collarBand = collar ? clamp01(1 - Math.abs(y - top - 7) / 7) : 0;
      const shade = (1 - 0.1 * (d / (width / 2)) ** 2) * (1 - 0.06 * collarBand);
      // The neck darkens a little just above the collar, in its shadow.
      const neckShadow = collar && top > y ? 1 - 0.18 * clamp01(1 - (top - y) / 18) : 1;
      const noise = shirtCover > 0 ? grain() : 0;
      for (let c = 0; c < 3; c++) {
        const kept = source[i + c]! * neckShadow * keep + backdrop(x, y, c) * (1 - keep);
        const value = kept * (1 - shirtCover) + (shirt[c]! * shade + noise) * shirtCover;
        output[i + c] = Math.round(Math.max(0, Math.min(255, value)));
      }
    }
  return sharp(output, { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 92 })
    .toBuffer();
}

/**
 * The backdrop's colour at a pixel: a smooth gradient, per row between its left and right edges.
 * Below `cleanTo` the edges are clothing, so the rows there continue the trend from `trendFrom`.
 */
function backdropOf(
  source: Buffer,
  width: number,
  height: number,
  rows: { cleanTo: number; trendFrom: number },
): (x: number, y: number, channel: number) => number {
  const edgeMean = (y: number, from: number) => {
    const mean = [0, 0, 0];
    for (let x = from; x < from + edgeColumns; x++)
      for (let c = 0; c < 3; c++) mean[c]! += source[(y * width + x) * 3 + c]! / edgeColumns;
    return mean;
  };
  const edges = (y: number) => [edgeMean(y, 0), edgeMean(y, width - edgeColumns)];
  const clean = edges(rows.cleanTo);
  const trend = edges(rows.trendFrom);
  const rowEdges = Array.from({ length: height }, (_, y) => {
    if (y <= rows.cleanTo) return edges(y);
    const t = (y - rows.cleanTo) / (rows.cleanTo - rows.trendFrom);
    return clean.map((side, s) => side.map((value, c) => value + (value - trend[s]![c]!) * t));
  });
  return (x, y, c) => {
    const [left, right] = rowEdges[y]!;
    return left![c]! + ((right![c]! - left![c]!) * x) / width;
  };
}

/** Where a closed outline crosses a row: its leftmost and rightmost points, or null. */
function rowSpan(outline: [number, number][], y: number): [number, number] | null {
  const xs: number[] = [];
  for (let k = 0; k < outline.length; k++) {
    const [x1, y1] = outline[k]!;
    const [x2, y2] = outline[(k + 1) % outline.length]!;
    if ((y1 <= y && y < y2) || (y2 <= y && y < y1))
      xs.push(x1 + ((y - y1) / (y2 - y1)) * (x2 - x1));
  }
  return xs.length < 2 ? null : [Math.min(...xs), Math.max(...xs)];
}

/** The shirt's colour: the median of the light colourless pixels of the bottom rows. */
function shirtColour(source: Buffer, width: number, height: number): number[] {
  const samples: number[][] = [[], [], []];
  for (let y = height - 40; y < height; y++)
    for (let x = 0; x < width; x += 3) {
      const i = (y * width + x) * 3;
      const [r, g, b] = [source[i]!, source[i + 1]!, source[i + 2]!];
      if (0.3 * r + 0.59 * g + 0.11 * b > 180 && Math.max(r, g, b) - Math.min(r, g, b) < 25)
        for (let c = 0; c < 3; c++) samples[c]!.push(source[i + c]!);
    }
  return samples.map((s) => s.sort((a, b) => a - b)[s.length >> 1] ?? 235);
}

function clamp01(value: number): number {
  return Math.max(0, Math.min(1, value));
}
