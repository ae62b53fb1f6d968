import type { OverlayOptions } from 'sharp';

/**
 * The small "Preview" badge the in-process engines (local generation, local try-on) draw in the
 * bottom-right corner of what they make, so a preview is never taken for an AI render.
 */

export const previewBadgeRules = {
  text: 'Preview',
  /** Badge height as a share of the picture's short side, and never below `minHeight` px. */
  heightShare: 0.045,
  minHeight: 18,
  /** Gap to the picture's edges, as a share of the short side. */
  marginShare: 0.02,
} as const;

export interface BadgeBox {
  left: number;
  top: number;
  width: number;
  height: number;
}

/** Where the badge is drawn (pixels of the output), e.g. to leave it out of comparisons. */
export function previewBadgeBox(width: number, height: number): BadgeBox {
  const rules = previewBadgeRules;
  const short = Math.min(width, height);
  const badgeHeight = Math.min(
    height,
    Math.max(rules.minHeight, Math.round(short * rules.heightShare)),
  );
  const fontSize = Math.round(badgeHeight * 0.56);
  // DejaVu Sans Bold averages about 0.7 em per character in this word.
  const badgeWidth = Math.min(width, Math.round(rules.text.length * fontSize * 0.7 + badgeHeight));
  const margin = Math.round(short * rules.marginShare);
  return {
    left: Math.max(0, width - badgeWidth - margin),
    top: Math.max(0, height - badgeHeight - margin),
    width: badgeWidth,
    height: badgeHeight,
  };
}

/** The badge itself: a translucent dark pill with the word in white, `box` sized. */
export function previewBadgeSvg(box: { width: number; height: number }): Buffer {
  const { width, height } = box;
  const fontSize = Math.round(height * 0.56);
  return Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">` +
      `<rect width="${width}" height="${height}" rx="${height / 2}" fill="#000" fill-opacity="0.5"/>` +
      `<text x="${width / 2}" y="${height / 2}" dy="0.36em" text-anchor="middle" ` +
      `font-family="DejaVu Sans, sans-serif" font-size="${fontSize}" font-weight="bold" ` +
      `fill="#fff" fill-opacity="0.92">${previewBadgeRules.text}</text></svg>`,
  );
}

/** The badge as a sharp `composite` entry for a `width`×`height` picture. */
export function previewBadgeOverlay(width: number, height: number): OverlayOptions {
  const box = previewBadgeBox(width, height);
  return { input: previewBadgeSvg(box), left: box.left, top: box.top };
}
