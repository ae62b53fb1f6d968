import sharp from 'sharp';
import type { Storage } from '../../storage/storage.ts';
import type { LikenessCutout } from '../local-training.ts';
import type { Cutout } from './compose.ts';

/** A stored cut-out (WebP, the matte as alpha) as the compositor takes it: colour and matte apart. */
export async function loadCutout(storage: Storage, cutout: LikenessCutout): Promise<Cutout> {
  return decodeCutout(await storage.read(cutout.key), cutout.landmarks);
}

/** A cut-out's WebP (the matte as alpha) as the compositor takes it. */
export async function decodeCutout(
  webp: Buffer,
  landmarks: LikenessCutout['landmarks'],
): Promise<Cutout> {
  const { data, info } = await sharp(webp)
    .ensureAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const pixels = info.width * info.height;
  const rgb = Buffer.alloc(pixels * 3);
  const alpha = new Uint8Array(pixels);
  for (let i = 0; i < pixels; i++) {
    rgb[i * 3] = data[i * 4]!;
    rgb[i * 3 + 1] = data[i * 4 + 1]!;
    rgb[i * 3 + 2] = data[i * 4 + 2]!;
    alpha[i] = data[i * 4 + 3]!;
  }
  return {
    image: { data: rgb, width: info.width, height: info.height },
    alpha,
    landmarks,
  };
}
