import { describe, expect, it } from 'vitest';
import type { PresetSummary } from '../../../common/api/catalog.ts';
import { carouselPresets } from './carousel-presets.ts';

const picture = {
  src: '/p.webp',
  width: 320,
  height: 400,
} as unknown as PresetSummary['featuredImage'];

function preset(id: number, pictured: boolean): PresetSummary {
  return { id: `p${id}`, featuredImage: pictured ? picture : null } as PresetSummary;
}

describe('carouselPresets', () => {
  it('shows at most 8 presets, those with a featured image, in order', () => {
    const presets = Array.from({ length: 12 }, (_, i) => preset(i, i !== 2));
    expect(carouselPresets(presets).map((p) => p.id)).toEqual([
      'p0',
      'p1',
      'p3',
      'p4',
      'p5',
      'p6',
      'p7',
      'p8',
    ]);
  });

  it('shows the first 8 when none has a picture yet', () => {
    const presets = Array.from({ length: 10 }, (_, i) => preset(i, false));
    expect(carouselPresets(presets)).toHaveLength(8);
    expect(carouselPresets([])).toEqual([]);
  });
});
