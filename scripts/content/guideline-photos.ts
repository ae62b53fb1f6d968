// The photo guidelines' "bad" examples that are made rather than found: two people side by side,
// sunglasses over the eyes, a photo taken in the dark. Each starts from person A's selfies.
import sharp from 'sharp';

/** The guidelines' pictures are portrait 4:5, as the upload page shows them. */
const canvas = { width: 640, height: 800 } as const;

/** A photo cover-cropped to the canvas, optionally mirrored. */
async function framed(photo: Buffer, mirror = false) {
  let image = sharp(photo).rotate().resize(canvas.width, canvas.height, { fit: 'cover' });
  if (mirror) image = image.flop();
  return image.removeAlpha().png().toBuffer();
}

/** Two selfies side by side on one picture (the second mirrored, so they face each other). */
export async function twoPeople(left: Buffer, right: Buffer): Promise<Buffer> {
  const half = Math.round(canvas.width / 2);
  const [a, b] = await Promise.all(
    [framed(left), framed(right, true)].map(async (p) =>
      sharp(await p)
        .resize(half, canvas.height, { fit: 'cover' })
        .png()
        .toBuffer(),
    ),
  );
  return sharp({
    create: { width: canvas.width, height: canvas.height, channels: 3, background: '#888' },
  })
    .composite([
      { input: a!, left: 0, top: 0 },
      { input: b!, left: half, top: 0 },
    ])
    .png()
    .toBuffer();
}

/** Dark sunglasses drawn over the eyes, whose centre and span (pixels on the canvas) are given. */
export async function withSunglasses(
  photo: Buffer,
  eyes: { x: number; y: number; span: number },
): Promise<Buffer> {
  const { x, y, span } = eyes;
  const lens = span * 0.36;
  const side = (sign: number) =>
    `<ellipse cx="${x + sign * span * 0.25}" cy="${y}" rx="${lens / 2}" ry="${lens * 0.36}" fill="#111"/>
     <line x1="${x + sign * (span * 0.25 + lens / 2)}" y1="${y - 4}" x2="${x + sign * span * 0.55}" y2="${y - 12}" stroke="#111" stroke-width="7"/>`;
  const glasses = `<svg xmlns="http://www.w3.org/2000/svg" width="${canvas.width}" height="${canvas.height}">
    ${side(-1)}${side(1)}
    <rect x="${x - span * 0.08}" y="${y - 4}" width="${span * 0.16}" height="7" fill="#111"/>
    <ellipse cx="${x - span * 0.3}" cy="${y - lens * 0.12}" rx="${lens * 0.12}" ry="${lens * 0.06}" fill="#fff" fill-opacity="0.35"/></svg>`;
  return sharp(await framed(photo))
    .composite([{ input: Buffer.from(glasses) }])
    .png()
    .toBuffer();
}

/** Under-exposed and noisy, as a phone makes a photo in a dim room. */
export async function tooDark(photo: Buffer): Promise<Buffer> {
  const balance = [0.95, 1, 1.1];
  const { data, info } = await sharp(await framed(photo))
    .linear(
      balance.map((b) => b * 0.22),
      balance.map((b) => b * 10),
    )
    .raw()
    .toBuffer({ resolveWithObject: true });
  // Sensor noise: deterministic, so the picture is the same at every build.
  let state = 0x9e3779b9;
  for (let i = 0; i < data.length; i++) {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    const noise = ((state >>> 0) / 0x100000000 - 0.5) * 18;
    data[i] = Math.max(0, Math.min(255, data[i]! + noise));
  }
  return sharp(data, { raw: { width: info.width, height: info.height, channels: 3 } })
    .png()
    .toBuffer();
}
