import { identity } from '../../common/product/identity.ts';

/**
 * Whether a face has colour of its own, for the likeness score of a picture that may have none
 * (decision 033). A black-and-white picture has no chroma, but a sepia or duotone one has plenty:
 * what they share is that each lightness has one colour, the toning's. A colour photo's skin,
 * lips, eyes and hair differ in colour at equal lightness. So the measure is the spread of colour
 * among pixels of the same lightness, not the amount of colour.
 */

/** Sides of the blocks averaged before measuring, pixels. */
const blockSide = 4;
/** Width of the lightness bands whose pixels are compared, CIELAB L* units. */
const lightnessBand = 2;

/**
 * The root-mean-square distance, in CIELAB a*b* units (D65), of a square crop's colours from the
 * mean colour of their lightness band: 0 for grey, about 1 for a toned picture after JPEG, 3 and
 * more for a colour photo's face. The crop is averaged over 4 px blocks first: JPEG keeps colour at
 * half resolution and quantises it, which scatters a toned picture's colours at its edges by a
 * unit or two, while a colour photo's spread lies between regions and survives. `pixels` holds RGB
 * 0..255 values interleaved (the descriptor's crop, `alignedFace` at scale 1).
 */
export function chromaSpread(pixels: ArrayLike<number>, side: number): number {
  const cells = Math.floor(side / blockSide);
  const bands = Math.ceil(100 / lightnessBand);
  const count = new Float64Array(bands);
  const sumA = new Float64Array(bands);
  const sumB = new Float64Array(bands);
  let sumOfSquares = 0;
  for (let cy = 0; cy < cells; cy++) {
    for (let cx = 0; cx < cells; cx++) {
      const rgb = [0, 0, 0];
      for (let y = cy * blockSide; y < (cy + 1) * blockSide; y++) {
        for (let x = cx * blockSide; x < (cx + 1) * blockSide; x++) {
          for (let c = 0; c < 3; c++) rgb[c]! += pixels[(y * side + x) * 3 + c]!;
        }
      }
      const area = blockSide * blockSide;
      const [l, a, b] = cieLab(rgb[0]! / area, rgb[1]! / area, rgb[2]! / area);
      const band = Math.min(bands - 1, Math.max(0, Math.floor(l / lightnessBand)));
      count[band]! += 1;
      sumA[band]! += a;
      sumB[band]! += b;
      sumOfSquares += a * a + b * b;
    }
  }
  const total = cells * cells;
  if (total === 0) return 0;
  // Σ|c − mean of its band|² = Σ|c|² − Σ over bands of |Σc|² / n.
  let explained = 0;
  for (let band = 0; band < bands; band++) {
    if (count[band]! > 0) explained += (sumA[band]! ** 2 + sumB[band]! ** 2) / count[band]!;
  }
  return Math.sqrt(Math.max(0, sumOfSquares - explained) / total);
}

/** Whether a face of this `chromaSpread` has no colour of its own (see `identity`). */
export function isColourless(spread: number): boolean {
  return spread < identity.colourlessMaxChromaSpread;
}

/** CIELAB (D65) of an sRGB colour given as 0..255 values. */
function cieLab(r: number, g: number, b: number): [number, number, number] {
  const linear = (value: number) => {
    const v = value / 255;
    return v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
  };
  const [lr, lg, lb] = [linear(r), linear(g), linear(b)];
  const f = (t: number) => (t > 216 / 24389 ? Math.cbrt(t) : ((24389 / 27) * t + 16) / 116);
  const fx = f((0.4124 * lr + 0.3576 * lg + 0.1805 * lb) / 0.95047);
  const fy = f(0.2126 * lr + 0.7152 * lg + 0.0722 * lb);
  const fz = f((0.0193 * lr + 0.1192 * lg + 0.9505 * lb) / 1.08883);
  return [116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)];
}
