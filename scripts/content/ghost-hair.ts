// The composite faces average four people's photos, so each has translucent "ghost" outlines of
// the individual hairstyles around the head. The segmentation model takes them for hair, and the
// engine's cut-out would carry a grey veil into every scene. Before a composite is used, light,
// colourless pixels around the head are pushed back to the backdrop's colour, so the matte leaves
// them out; the face, the dark hair and everything below the chin stay as they are.
import sharp from 'sharp';
import { analyzePhoto } from '../../src/server/images/faces.ts';

/** The face ellipse kept untouched, as shares of the detector's face box. */
const face = { radiusX: 0.38, radiusY: 0.52, chinBelow: 1.05 };
/** A pixel is ghost-like from this luminance up, and when its chroma is below this. */
const ghost = { fromLuminance: 110, luminanceRamp: 60, maxChroma: 30, chromaRamp: 20 };
const edgeColumns = 20;

export async function withoutGhostHair(photo: Buffer): Promise<Buffer> {
  const { faces } = await analyzePhoto(photo);
  const box = faces[0]?.box;
  if (!box) throw new Error('no face found in the composite');
  const { data, info } = await sharp(photo)
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const { width, height } = info;
  const centre = { x: box.x + box.width / 2, y: box.y + box.height / 2 };
  const radius = { x: box.width * face.radiusX, y: box.height * face.radiusY };
  const chin = box.y + box.height * face.chinBelow;

  // The backdrop is a smooth gradient: per row, between its left and right edge colours.
  const edgeMean = (y: number, from: number) => {
    const mean = [0, 0, 0];
    for (let x = from; x < from + edgeColumns; x++)
      for (let c = 0; c < 3; c++) mean[c]! += data[(y * width + x) * 3 + c]! / edgeColumns;
    return mean;
  };
  for (let y = 0; y < Math.min(height, chin); y++) {
    const left = edgeMean(y, 0);
    const right = edgeMean(y, width - edgeColumns);
    for (let x = 0; x < width; x++) {
      if (((x - centre.x) / radius.x) ** 2 + ((y - centre.y) / radius.y) ** 2 < 1) continue;
      const i = (y * width + x) * 3;
      const [r, g, b] = [data[i]!, data[i + 1]!, data[i + 2]!];
      const luminance = 0.3 * r + 0.59 * g + 0.11 * b;
      const chroma = Math.max(r, g, b) - Math.min(r, g, b);
      const ghostness =
        clamp01((luminance - ghost.fromLuminance) / ghost.luminanceRamp) *
        clamp01((ghost.maxChroma - chroma) / ghost.chromaRamp);
      for (let c = 0; c < 3; c++) {
        const backdrop = left[c]! + ((right[c]! - left[c]!) * x) / width;
        data[i + c] = Math.round(data[i + c]! * (1 - ghostness) + backdrop * ghostness);
      }
    }
  }
  return sharp(data, { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 92 })
    .toBuffer();
}

function clamp01(value: number): number {
  return Math.max(0, Math.min(1, value));
}
