import type { PresetSummary } from '../../../common/api/catalog.ts';
import { lists } from '../../../common/product/limits.ts';

/**
 * What a category's carousel on the dashboard shows (spec §9): at most 8 of its presets, those
 * with a featured image, in order; View All opens the rest. A category whose presets have no
 * picture yet still shows its first 8 (as placeholders) rather than looking empty.
 */
export function carouselPresets(presets: readonly PresetSummary[]): PresetSummary[] {
  const pictured = presets.filter((preset) => preset.featuredImage !== null);
  return (pictured.length > 0 ? pictured : presets).slice(0, lists.presetsPerCategory);
}
