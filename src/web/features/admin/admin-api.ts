import { queryOptions, type QueryClient } from '@tanstack/react-query';
import type {
  AdminCategory,
  AdminExamplePhoto,
  AdminPreset,
  AdminQuizImage,
  PresetImageRole,
  UpdateCategoryRequest,
  UpdateExamplePhotoRequest,
  UpdatePresetRequest,
  UpdateQuizImageRequest,
} from '../../../common/api/admin.ts';
import type { GoodOrBad } from '../../../common/api/catalog.ts';
import type { CostsResponse } from '../../../common/api/costs.ts';
import { commonMessages } from '../../../common/messages/shell.ts';
import { api, ApiError, type QueryValue } from '../../lib/api-client.ts';
import { catalogQueryKeys } from '../catalog/catalog-api.ts';

/** The operator's admin API (/api/admin). Everything answers 404 to non-admins. */

export const adminQueryKeys = {
  all: ['admin'] as const,
  categories: () => [...adminQueryKeys.all, 'categories'] as const,
  presets: (category: string) => [...adminQueryKeys.all, 'presets', category] as const,
  examplePhotos: () => [...adminQueryKeys.all, 'example-photos'] as const,
  quizImages: () => [...adminQueryKeys.all, 'quiz-images'] as const,
  costs: (days: number) => [...adminQueryKeys.all, 'costs', days] as const,
};

export function adminCostsQuery(days: number) {
  return queryOptions({
    queryKey: adminQueryKeys.costs(days),
    queryFn: ({ signal }) =>
      api.get<CostsResponse>('/api/admin/costs', { signal, query: { days: String(days) } }),
  });
}

export function adminCategoriesQuery() {
  return queryOptions({
    queryKey: adminQueryKeys.categories(),
    queryFn: ({ signal }) =>
      api.get<{ categories: AdminCategory[] }>('/api/admin/categories', { signal }),
  });
}

export function adminPresetsQuery(category: string) {
  return queryOptions({
    queryKey: adminQueryKeys.presets(category),
    queryFn: ({ signal }) =>
      api.get<{ presets: AdminPreset[] }>('/api/admin/presets', { signal, query: { category } }),
    enabled: category !== '',
  });
}

export function adminExamplePhotosQuery() {
  return queryOptions({
    queryKey: adminQueryKeys.examplePhotos(),
    queryFn: ({ signal }) =>
      api.get<{ photos: AdminExamplePhoto[] }>('/api/admin/example-photos', { signal }),
  });
}

export function adminQuizImagesQuery() {
  return queryOptions({
    queryKey: adminQueryKeys.quizImages(),
    queryFn: ({ signal }) =>
      api.get<{ images: AdminQuizImage[] }>('/api/admin/quiz-images', { signal }),
  });
}

/** After any admin write: the admin lists and the public catalog the studio shows are stale. */
export function invalidateCatalog(queryClient: QueryClient): Promise<void> {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: adminQueryKeys.all }),
    queryClient.invalidateQueries({ queryKey: catalogQueryKeys.all }),
  ]).then(() => undefined);
}

const id = encodeURIComponent;

export const adminApi = {
  createCategory: (body: {
    manualId: string;
    displayName: string;
    emoji?: string | null;
    featured?: boolean;
  }) => api.post<{ category: AdminCategory }>('/api/admin/categories', body),
  updateCategory: (manualId: string, body: UpdateCategoryRequest) =>
    api.patch<{ category: AdminCategory }>(`/api/admin/categories/${id(manualId)}`, body),
  reorderCategories: (manualIds: string[]) =>
    api.put<{ categories: AdminCategory[] }>('/api/admin/categories/order', { manualIds }),

  createPreset: (body: {
    categoryId: string;
    displayName: string;
    prompt: string;
    description?: string;
    manualId?: string;
  }) => api.post<{ preset: AdminPreset }>('/api/admin/presets', body),
  updatePreset: (presetId: string, body: UpdatePresetRequest) =>
    api.patch<{ preset: AdminPreset }>(`/api/admin/presets/${id(presetId)}`, body),
  reorderPresets: (categoryId: string, ids: string[]) =>
    api.put<{ presets: AdminPreset[] }>('/api/admin/presets/order', { categoryId, ids }),
  featurePresetImage: (presetId: string, imageId: string) =>
    api.post<{ preset: AdminPreset }>(
      `/api/admin/presets/${id(presetId)}/images/${id(imageId)}/feature`,
    ),
  deletePresetImage: (presetId: string, imageId: string) =>
    api.delete<{ preset: AdminPreset }>(`/api/admin/presets/${id(presetId)}/images/${id(imageId)}`),

  updateExamplePhoto: (photoId: string, body: UpdateExamplePhotoRequest) =>
    api.patch<{ photo: AdminExamplePhoto }>(`/api/admin/example-photos/${id(photoId)}`, body),
  deleteExamplePhoto: (photoId: string) =>
    api.delete<void>(`/api/admin/example-photos/${id(photoId)}`),
  reorderExamplePhotos: (ids: string[]) =>
    api.put<{ photos: AdminExamplePhoto[] }>('/api/admin/example-photos/order', { ids }),

  updateQuizImage: (imageId: string, body: UpdateQuizImageRequest) =>
    api.patch<{ image: AdminQuizImage }>(`/api/admin/quiz-images/${id(imageId)}`, body),
  deleteQuizImage: (imageId: string) => api.delete<void>(`/api/admin/quiz-images/${id(imageId)}`),
};

export const adminUploads = {
  presetImage: (presetId: string, role: PresetImageRole, file: File, onProgress: Progress) =>
    upload<{ preset: AdminPreset }>(
      `/api/admin/presets/${id(presetId)}/images`,
      { as: role },
      file,
      onProgress,
    ),
  examplePhoto: (goodOrBad: GoodOrBad, caption: string, file: File, onProgress: Progress) =>
    upload<{ photo: AdminExamplePhoto }>(
      '/api/admin/example-photos',
      { goodOrBad, caption: caption || undefined },
      file,
      onProgress,
    ),
  quizImage: (isAi: boolean, file: File, onProgress: Progress) =>
    upload<{ image: AdminQuizImage }>('/api/admin/quiz-images', { isAi }, file, onProgress),
};

type Progress = (fraction: number) => void;

/**
 * One picture as multipart (field `file`), with upload progress: fetch cannot report request
 * progress, so this one call uses XMLHttpRequest. Failures become ApiErrors carrying the
 * server's message ("File is larger than 10 MB", …), as from the rest of the API client.
 */
function upload<T>(
  path: string,
  query: Record<string, QueryValue>,
  file: File,
  onProgress: Progress,
): Promise<T> {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== null) params.set(key, String(value));
  }
  const url = params.size ? `${path}?${params.toString()}` : path;
  const body = new FormData();
  body.append('file', file);

  return new Promise<T>((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open('POST', url);
    request.withCredentials = true;
    request.setRequestHeader('Accept', 'application/json');
    request.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress(event.loaded / event.total);
    };
    request.onload = () => {
      let parsed: unknown;
      try {
        parsed = request.responseText ? JSON.parse(request.responseText) : undefined;
      } catch {
        parsed = undefined;
      }
      if (request.status >= 200 && request.status < 300) {
        resolve(parsed as T);
        return;
      }
      const error = (parsed as { error?: { code?: string; message?: string } } | undefined)?.error;
      reject(
        new ApiError(
          request.status,
          error?.code ?? `HTTP_${request.status}`,
          error?.message ?? commonMessages.unexpectedError,
        ),
      );
    };
    request.onerror = () => reject(new ApiError(0, 'NETWORK_ERROR', commonMessages.networkError));
    request.send(body);
  });
}
