import { queryOptions } from '@tanstack/react-query';
// Type-only: the schemas live with zod, which the page bundles do not need.
import type {
  CategoriesResponse,
  CategoryDetailResponse,
  PresetResponse,
  PresetsResponse,
} from '../../../common/api/catalog.ts';
import { api } from '../../lib/api-client.ts';

/**
 * The public catalog as the studio reads it. Catalog JSON is revalidated with an ETag by the
 * server, so a refetch of unchanged data costs a 304; a minute of staleness keeps tab switches
 * and Back navigation instant.
 */
const catalogStaleTimeMs = 60_000;

export const catalogQueryKeys = {
  all: ['catalog'] as const,
  categories: () => [...catalogQueryKeys.all, 'categories'] as const,
  presets: () => [...catalogQueryKeys.all, 'presets'] as const,
  category: (manualId: string) => [...catalogQueryKeys.all, 'category', manualId] as const,
  preset: (id: string) => [...catalogQueryKeys.all, 'preset', id] as const,
};

export function categoriesQueryOptions() {
  return queryOptions({
    queryKey: catalogQueryKeys.categories(),
    queryFn: ({ signal }) => api.get<CategoriesResponse>('/api/catalog/categories', { signal }),
    staleTime: catalogStaleTimeMs,
  });
}

/** Every active preset of every active category, in category then preset order. */
export function presetsQueryOptions() {
  return queryOptions({
    queryKey: catalogQueryKeys.presets(),
    queryFn: ({ signal }) => api.get<PresetsResponse>('/api/catalog/presets', { signal }),
    staleTime: catalogStaleTimeMs,
  });
}

export function categoryQueryOptions(manualId: string) {
  return queryOptions({
    queryKey: catalogQueryKeys.category(manualId),
    queryFn: ({ signal }) =>
      api.get<CategoryDetailResponse>(`/api/catalog/categories/${encodeURIComponent(manualId)}`, {
        signal,
      }),
    staleTime: catalogStaleTimeMs,
  });
}

export function presetQueryOptions(id: string) {
  return queryOptions({
    queryKey: catalogQueryKeys.preset(id),
    queryFn: ({ signal }) =>
      api.get<PresetResponse>(`/api/catalog/presets/${encodeURIComponent(id)}`, { signal }),
    staleTime: catalogStaleTimeMs,
  });
}

/** What the category and preset pages receive as router state from the page that linked them. */
export interface CatalogLinkState {
  /** Shown as the category page's title before its data arrives (the specification's state). */
  categoryName?: string;
  /** Set when a preset is opened from a category page: Back returns there. */
  fromCategory?: string;
}

export function readCatalogLinkState(state: unknown): CatalogLinkState {
  if (typeof state !== 'object' || state === null) return {};
  const record = state as Record<string, unknown>;
  return {
    categoryName: typeof record.categoryName === 'string' ? record.categoryName : undefined,
    fromCategory: typeof record.fromCategory === 'string' ? record.fromCategory : undefined,
  };
}
