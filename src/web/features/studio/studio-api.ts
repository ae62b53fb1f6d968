import { queryOptions, type QueryClient } from '@tanstack/react-query';
// Type-only: the schemas live with zod, which the studio pages need not download.
import type { ExamplePhotosResponse } from '../../../common/api/catalog.ts';
import type {
  Draft,
  DraftPhotosResponse,
  StudioSettings,
  studioEvents,
  UserModel,
  UserModelsResponse,
} from '../../../common/api/studio.ts';
import { trainingMessages } from '../../../common/messages/models.ts';
import { notify } from '../../components/ui/toast.ts';
import { api } from '../../lib/api-client.ts';
import { registerEventHandler } from '../../lib/event-stream.ts';
import { uploadFile, type UploadFileOptions } from '../../lib/upload-file.ts';

/** Every studio query starts with this key, so one invalidation refreshes them all. */
export const studioQueryKeys = {
  all: ['studio'] as const,
  photos: ['studio', 'photos'] as const,
  draft: ['studio', 'draft'] as const,
  models: ['studio', 'models'] as const,
  settings: ['studio', 'settings'] as const,
};

// The event names of `studioEvents` (common/api/studio.ts), checked against it by type only.
const events = {
  photoUpdated: 'photo.updated',
  modelUpdated: 'model.updated',
  previewUpdated: 'preview.updated',
} as const satisfies typeof studioEvents;

/** The good and bad example photos of /example-photos (operator content, rarely changed). */
export function examplePhotosQueryOptions() {
  return queryOptions({
    queryKey: ['catalog', 'example-photos'] as const,
    queryFn: ({ signal }) =>
      api.get<ExamplePhotosResponse>('/api/catalog/example-photos', { signal }),
    staleTime: 5 * 60_000,
  });
}

export function photosQueryOptions() {
  return queryOptions({
    queryKey: studioQueryKeys.photos,
    queryFn: ({ signal }) => api.get<DraftPhotosResponse>('/api/studio/photos', { signal }),
  });
}

export function draftQueryOptions() {
  return queryOptions({
    queryKey: studioQueryKeys.draft,
    queryFn: ({ signal }) => api.get<Draft>('/api/studio/draft', { signal }),
  });
}

export function modelsQueryOptions() {
  return queryOptions({
    queryKey: studioQueryKeys.models,
    queryFn: ({ signal }) => api.get<UserModelsResponse>('/api/studio/models', { signal }),
  });
}

export function settingsQueryOptions() {
  return queryOptions({
    queryKey: studioQueryKeys.settings,
    queryFn: ({ signal }) => api.get<StudioSettings>('/api/studio/settings', { signal }),
  });
}

/** One photo per request, so each file has its own progress bar and its own outcome. */
export function uploadPhoto(
  file: File,
  options: Pick<UploadFileOptions, 'onProgress' | 'signal'>,
): Promise<{ photo: DraftPhotosResponse['photos'][number] }> {
  return uploadFile('/api/studio/photos', file, options);
}

export function deletePhoto(photoId: string): Promise<void> {
  return api.delete<void>(`/api/studio/photos/${encodeURIComponent(photoId)}`);
}

export function updateDraft(body: Partial<Draft>): Promise<Draft> {
  return api.put<Draft>('/api/studio/draft', body);
}

export function createModel(body: {
  name: string;
  gender: Draft['gender'];
}): Promise<{ model: UserModel }> {
  return api.post<{ model: UserModel }>('/api/studio/models', body);
}

export function selectModel(modelId: string): Promise<UserModelsResponse> {
  return api.put<UserModelsResponse>('/api/studio/models/selected', { modelId });
}

export function deleteModel(modelId: string): Promise<void> {
  return api.delete<void>(`/api/studio/models/${encodeURIComponent(modelId)}`);
}

export function updateSettings(body: StudioSettings): Promise<StudioSettings> {
  return api.put<StudioSettings>('/api/studio/settings', body);
}

const terminalStatuses = new Set(['complete', 'failed']);

/**
 * Live studio news, registered once by the app:
 * - `photo.updated`: a photo was added, validated or removed: the draft's photos are stale.
 * - `model.updated`: a model was created, progressed, finished or deleted. A progress tick of a
 *   model already in the cache patches it in place (no refetch per percent); anything else
 *   refetches the models (and the draft, which a new model empties). A training that ends is
 *   announced once, by name, wherever the user is.
 * - `preview.updated`: a training preview was made (or will not be): the models carry them.
 */
export function registerStudioEventHandlers(): () => void {
  const announced = new Set<string>();

  const unregisterPhotos = registerEventHandler(events.photoUpdated, (_event, queryClient) => {
    void queryClient.invalidateQueries({ queryKey: studioQueryKeys.photos });
  });

  const unregisterModels = registerEventHandler(events.modelUpdated, (event, queryClient) => {
    const { modelId, status, progress } = event.data;
    const cached = queryClient.getQueryData<UserModelsResponse>(studioQueryKeys.models);
    const before = cached?.models.find((model) => model.id === modelId);

    if (before && status === before.status && !terminalStatuses.has(status)) {
      patchModel(queryClient, before.id, { progress });
      return;
    }

    void queryClient.invalidateQueries({ queryKey: studioQueryKeys.photos });
    void queryClient.invalidateQueries({ queryKey: studioQueryKeys.draft });
    if (!modelId || !status || !terminalStatuses.has(status) || before?.status === status) {
      void queryClient.invalidateQueries({ queryKey: studioQueryKeys.models });
      return;
    }
    const key = `${modelId}:${status}`;
    if (announced.has(key)) {
      void queryClient.invalidateQueries({ queryKey: studioQueryKeys.models });
      return;
    }
    announced.add(key);
    void queryClient.invalidateQueries({ queryKey: studioQueryKeys.models });
    void queryClient
      .fetchQuery(modelsQueryOptions())
      .then((fresh) => {
        const model = fresh.models.find((item) => item.id === modelId);
        const name = model?.name ?? before?.name;
        // A deleted model (or one this tab never knew) has nothing to announce.
        if (!name || (model && model.status !== status)) return;
        if (status === 'complete') notify.success(trainingMessages.completed(name));
        else notify.error(trainingMessages.failed(name));
      })
      .catch((error: unknown) => console.warn('Models refresh after an update failed', error));
  });

  const unregisterPreviews = registerEventHandler(events.previewUpdated, (_event, queryClient) => {
    void queryClient.invalidateQueries({ queryKey: studioQueryKeys.models });
  });

  return () => {
    unregisterPhotos();
    unregisterModels();
    unregisterPreviews();
  };
}

function patchModel(queryClient: QueryClient, modelId: string, patch: Partial<UserModel>): void {
  queryClient.setQueryData<UserModelsResponse>(studioQueryKeys.models, (current) =>
    current
      ? {
          ...current,
          models: current.models.map((model) =>
            model.id === modelId ? { ...model, ...patch } : model,
          ),
        }
      : current,
  );
}
