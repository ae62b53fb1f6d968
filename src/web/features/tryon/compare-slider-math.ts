/**
 * The before/after slider's numbers: the divider's position as a percentage of the picture's
 * width (0 = all "after", 100 = all "before"), from a pointer or from a key.
 */

export const sliderBounds = { min: 0, max: 100 } as const;
/** One arrow key press moves the divider this far. */
export const sliderKeyStep = 5;
/** Page Up / Page Down move it further. */
export const sliderPageStep = 20;

export function clampPercent(value: number): number {
  if (!Number.isFinite(value)) return sliderBounds.min;
  return Math.min(sliderBounds.max, Math.max(sliderBounds.min, value));
}

/** Where a pointer at `clientX` puts the divider over a box at `left` that is `width` wide. */
export function percentFromPointer(clientX: number, box: { left: number; width: number }): number {
  if (!(box.width > 0)) return sliderBounds.min;
  return clampPercent(((clientX - box.left) / box.width) * 100);
}

/**
 * The divider's position after a key press, or null when the key does not move it (so the page
 * keeps its own meaning, e.g. Tab). Arrows move by 5 (up and right towards "before"), Page keys
 * by 20, Home and End go to the ends.
 */
export function percentForKey(key: string, current: number): number | null {
  switch (key) {
    case 'ArrowRight':
    case 'ArrowUp':
      return clampPercent(current + sliderKeyStep);
    case 'ArrowLeft':
    case 'ArrowDown':
      return clampPercent(current - sliderKeyStep);
    case 'PageUp':
      return clampPercent(current + sliderPageStep);
    case 'PageDown':
      return clampPercent(current - sliderPageStep);
    case 'Home':
      return sliderBounds.min;
    case 'End':
      return sliderBounds.max;
    default:
      return null;
  }
}

/** The overlay's clip: the "before" picture shows from the left edge up to the divider. */
export function beforeClipPath(percent: number): string {
  return `inset(0 ${round(sliderBounds.max - clampPercent(percent))}% 0 0)`;
}

/** For aria-valuenow and the value text: whole percentages. */
export function roundPercent(percent: number): number {
  return Math.round(clampPercent(percent));
}

function round(value: number): number {
  return Math.round(value * 100) / 100;
}
