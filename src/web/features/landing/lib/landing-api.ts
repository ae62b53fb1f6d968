import { useDeferredValue } from 'react';
// Type-only: the zod schemas stay out of the landing chunk (the server already validated).
import type {
  ExamplePhotosResponse,
  LandingPreset,
  LandingResponse,
} from '../../../../common/api/catalog.ts';
import { api } from '../../../lib/api-client.ts';
import { sharedRequest, type SharedRequest } from './shared-request.ts';

export type LandingCategory = LandingResponse['categories'][number];

// The catalog changes only when an operator edits it; the server answers 304 when unchanged.
const catalogStaleTimeMs = 10 * 60_000;

/** The landing page's two catalog requests; its entry starts them before React runs. */
export const landingRequests = {
  catalog: sharedRequest(
    () => api.get<LandingResponse>('/api/catalog/landing'),
    catalogStaleTimeMs,
  ),
  examplePhotos: sharedRequest(
    () => api.get<ExamplePhotosResponse>('/api/catalog/example-photos'),
    catalogStaleTimeMs,
  ),
};

/** The showcase's categories (each with at most 8 presets that have a picture). */
export function useLandingCatalog() {
  const { data, isPending } = useDrawableData(landingRequests.catalog);
  return { categories: data?.categories ?? [], isPending };
}

/** The "good" example photos: real-looking selfies, the "before" of the page's stories. */
export function useGoodExamplePhotos() {
  const { data, isPending } = useDrawableData(landingRequests.examplePhotos);
  return {
    photos: (data?.photos ?? []).filter((photo) => photo.goodOrBad === 'good'),
    isPending,
  };
}

/**
 * A landing request's data as the page may draw it: none while React takes over the prerendered
 * markup, which had none, and new data a moment late. Drawing the catalog's pictures is the
 * page's heaviest render; deferred, React does it in the background in slices that let the
 * browser breathe, rather than in one block the visitor would wait on.
 */
function useDrawableData<Data>(request: SharedRequest<Data>): {
  data: Data | undefined;
  isPending: boolean;
} {
  const answer = useDeferredValue(request.useAnswer());
  return { data: answer.data, isPending: answer.data === undefined && !answer.failed };
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
