import { queryOptions, useQuery } from '@tanstack/react-query';
// Type-only: the zod schemas stay out of the landing chunk (the server already validated).
import type {
  ExamplePhotosResponse,
  LandingPreset,
  LandingResponse,
} from '../../../../common/api/catalog.ts';
import { api } from '../../../lib/api-client.ts';

export type LandingCategory = LandingResponse['categories'][number];

// The catalog changes only when an operator edits it; the server answers 304 when unchanged.
const catalogStaleTimeMs = 10 * 60_000;

export const landingQueryOptions = queryOptions({
  queryKey: ['catalog', 'landing'],
  queryFn: ({ signal }) => api.get<LandingResponse>('/api/catalog/landing', { signal }),
  staleTime: catalogStaleTimeMs,
});

export const examplePhotosQueryOptions = queryOptions({
  queryKey: ['catalog', 'example-photos'],
  queryFn: ({ signal }) =>
    api.get<ExamplePhotosResponse>('/api/catalog/example-photos', { signal }),
  staleTime: catalogStaleTimeMs,
});

/** The showcase's categories (each with at most 8 presets that have a picture). */
export function useLandingCatalog() {
  const query = useQuery(landingQueryOptions);
  return { categories: query.data?.categories ?? [], isPending: query.isPending };
}

/** The "good" example photos: real-looking selfies, the "before" of the page's stories. */
export function useGoodExamplePhotos() {
  const query = useQuery(examplePhotosQueryOptions);
  return {
    photos: (query.data?.photos ?? []).filter((photo) => photo.goodOrBad === 'good'),
    isPending: query.isPending,
  };
}

/** Every preset of every category, in catalog order. */
export function allPresets(categories: readonly LandingCategory[]): LandingPreset[] {
  return categories.flatMap((category) => category.presets);
}

/** The preset with this key, else the `fallbackIndex`-th one, so the page never shows a hole. */
export function presetByKey(
  categories: readonly LandingCategory[],
  manualId: string,
  fallbackIndex: number,
): LandingPreset | undefined {
  const presets = allPresets(categories);
  return (
    presets.find((preset) => preset.manualId === manualId) ??
    presets[fallbackIndex % Math.max(presets.length, 1)]
  );
}
