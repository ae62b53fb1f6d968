// Makes the public try-on page's before/after pair from a seed photo (assets/seed, CC0):
//   npx tsx scripts/make-tryon-demo.ts
// The catalog's default content has no picture of one person in two outfits, so the pair is
// composed: "before" is the photo as it is (cropped to 4:5); "after" is the same photo with the
// sweater re-dyed. The sweater is found by colour (light, unsaturated pixels below the
// shoulders), and its new colour keeps the knit's own light and shade, so the stripes, folds and
// shadows stay. The outputs are committed under src/web/features/tryon/assets/.

import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';

const source = path.resolve('assets/seed/person-a/a-03.jpg');
const outDir = path.resolve('src/web/features/tryon/assets');
const out = { width: 800, height: 1000 };
/** The garment's new colour (a deep terracotta, close to the brand accent), as linear-ish RGB. */
const dye = { r: 168, g: 74, b: 46 };
/**
 * Where the sweater may be, in output pixels: below the shoulders, and lower still at the sides,
 * where the white wall tiles in shade are as grey as the knit. Tied to this one photo.
 */
function mayBeGarment(x: number, y: number): boolean {
  if (x < 100) return y >= 818 - 0.48 * x;
  if (x < 140) return y >= 770 - 0.2 * (x - 100);
  if (x <= 520) return y >= 720;
  if (x <= 660) return y >= 700;
  return y >= 738 + 0.45 * (x - 660);
}

async function main() {
  const meta = await sharp(source).metadata();
  const width = meta.width ?? 0;
  const height = meta.height ?? 0;
  const cropHeight = Math.round((width * out.height) / out.width);
  const crop = { left: 0, top: height - cropHeight, width, height: cropHeight };

  const { data, info } = await sharp(source)
    .rotate()
    .extract(crop)
    .resize(out.width, out.height)
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });

  // 1. Where the sweater is: light grey (low saturation, mid-to-high value) below the shoulders.
  const mask = Buffer.alloc(info.width * info.height);
  const lumas: number[] = [];
  for (let y = 0; y < info.height; y += 1) {
    for (let x = 0; x < info.width; x += 1) {
      if (!mayBeGarment(x, y)) continue;
      const i = (y * info.width + x) * 3;
      const r = data[i]!;
      const g = data[i + 1]!;
      const b = data[i + 2]!;
      const max = Math.max(r, g, b);
      const min = Math.min(r, g, b);
      const saturation = max === 0 ? 0 : (max - min) / max;
      if (saturation < 0.16 && max > 95 && max < 236) {
        mask[y * info.width + x] = 255;
        lumas.push(0.2126 * r + 0.7152 * g + 0.0722 * b);
      }
    }
  }
  lumas.sort((a, b) => a - b);
  const medianLuma = lumas[Math.floor(lumas.length / 2)] ?? 160;

  // 2. Clean the mask (a median filter drops specks and fills the knit's dark stitches), then
  //    feather it so the dye fades over a pixel or two instead of ending in a hard line.
  const cleaned = await sharp(mask, {
    raw: { width: info.width, height: info.height, channels: 1 },
  })
    .median(7)
    .blur(1.2)
    .extractChannel(0)
    .raw()
    .toBuffer();

  // 3. Dye: the new colour scaled by each pixel's luminance relative to the sweater's median.
  const after = Buffer.from(data);
  for (let p = 0; p < info.width * info.height; p += 1) {
    const alpha = cleaned[p]! / 255;
    if (alpha === 0) continue;
    const i = p * 3;
    const luma = 0.2126 * data[i]! + 0.7152 * data[i + 1]! + 0.0722 * data[i + 2]!;
    const shade = Math.pow(luma / medianLuma, 1.15);
    const dyed = [dye.r * shade, dye.g * shade, dye.b * shade];
    for (let c = 0; c < 3; c += 1) {
      const value = data[i + c]! * (1 - alpha) + Math.min(255, dyed[c]!) * alpha;
      after[i + c] = Math.round(value);
    }
  }

  await mkdir(outDir, { recursive: true });
  const raw = { raw: { width: info.width, height: info.height, channels: 3 as const } };
  await sharp(data, raw).webp({ quality: 78 }).toFile(path.join(outDir, 'tryon-before.webp'));
  await sharp(after, raw).webp({ quality: 78 }).toFile(path.join(outDir, 'tryon-after.webp'));
  console.log(`Wrote ${outDir}/tryon-{before,after}.webp (${info.width}x${info.height})`);
}

await main();
