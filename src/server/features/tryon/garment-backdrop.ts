import sharp from 'sharp';
import { photos } from '../../../common/product/photos.ts';

// A light garment is cut out against this; anything else against white, as every photo is.
const darkBackdrop = '#262626';
const white = '#ffffff';
// Mean luminance (0-1) of the visible pixels above which a garment counts as light.
const lightGarment = 0.6;
// Enough to tell light from dark; the photo itself is normalised afterwards.
const sampleSide = 64;

/**
 * The colour a garment photo's transparent parts become when it is flattened to JPEG. A product
 * cut-out of a white shirt on a transparent PNG would vanish on white, and no engine could find
 * the garment again, so a light garment gets a dark backdrop. A file that cannot be read gets
 * white: normalizePhoto then refuses it in its own words.
 */
export async function garmentBackdrop(file: string): Promise<string> {
  try {
    const { data, info } = await sharp(file, { limitInputPixels: photos.maxPixels })
      .resize(sampleSide, sampleSide, { fit: 'inside' })
      .ensureAlpha()
      .toColourspace('srgb')
      .raw()
      .toBuffer({ resolveWithObject: true });
    let weight = 0;
    let light = 0;
    let transparent = false;
    for (let i = 0; i < info.width * info.height; i++) {
      const alpha = data[i * 4 + 3]! / 255;
      if (alpha < 0.5) transparent = true;
      const luminance =
        (0.2126 * data[i * 4]! + 0.7152 * data[i * 4 + 1]! + 0.0722 * data[i * 4 + 2]!) / 255;
      weight += alpha;
      light += alpha * luminance;
    }
    if (!transparent || weight === 0) return white;
    return light / weight > lightGarment ? darkBackdrop : white;
  } catch {
    return white;
  }
}
