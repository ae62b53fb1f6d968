import {
  infiniteQueryOptions,
  queryOptions,
  type InfiniteData,
  type QueryClient,
} from '@tanstack/react-query';
// Type-only: the schemas live with zod, which the generation pages need not download.
import type {
  BulkJob,
  BulkRequest,
  Generation,
  generationEvents,
  GenerationsPage,
} from '../../../common/api/generation.ts';
import { bulkMessages, generationMessages } from '../../../common/messages/generation.ts';
import { lists } from '../../../common/product/limits.ts';
import { routes } from '../../../common/product/routes.ts';
import { api, ApiError, clientErrorCodes, isApiError } from '../../lib/api-client.ts';
import { registerEventHandler } from '../../lib/event-stream.ts';
import { customUpgradePath } from './generation-rules.ts';

export type { BulkJob, Generation } from '../../../common/api/generation.ts';

export type GenerationsFilter = 'all' | 'favourites';

/** Every generation query starts with one of these, so one invalidation refreshes a family. */
export const generationQueryKeys = {
  all: ['generations'] as const,
  lists: ['generations', 'list'] as const,
  list: (filter: GenerationsFilter) => ['generations', 'list', filter] as const,
  detail: (id: string) => ['generations', 'detail', id] as const,
  bulkJobs: ['bulk-jobs'] as const,
  bulkJobList: ['bulk-jobs', 'list'] as const,
  bulkJob: (id: string) => ['bulk-jobs', 'detail', id] as const,
};

// The event names of `generationEvents` (common/api/generation.ts), checked against it by type.
const events = {
  generationUpdated: 'generation.updated',
  bulkJobUpdated: 'bulk-job.updated',
} as const satisfies typeof generationEvents;

export interface BulkJobDetail {
  bulkJob: BulkJob;
  generations: Generation[];
}

export interface BulkCreated {
  bulkJob: BulkJob;
  queued: number;
  failures: number;
}

/** Single generations (not from bulk jobs), newest first, a page of 50 at a time. */
export function generationsQueryOptions(filter: GenerationsFilter) {
  return infiniteQueryOptions({
    queryKey: generationQueryKeys.list(filter),
    queryFn: ({ signal, pageParam }) =>
      api.get<GenerationsPage>('/api/generations', {
        signal,
        query: { cursor: pageParam, limit: lists.generationsPage, filter },
      }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });
}

export function generationQueryOptions(id: string) {
  return queryOptions({
    queryKey: generationQueryKeys.detail(id),
    queryFn: ({ signal }) =>
      api
        .get<{ generation: Generation }>(`/api/generations/${encodeURIComponent(id)}`, { signal })
        .then((body) => body.generation),
    // A 404 is an answer ("Image not found", or the id of a bulk job), not worth a retry.
    retry: (failureCount, error) => !isNotFound(error) && failureCount < 1,
  });
}

/** The newest 20 bulk jobs. */
export function bulkJobsQueryOptions() {
  return queryOptions({
    queryKey: generationQueryKeys.bulkJobList,
    queryFn: ({ signal }) =>
      api.get<{ bulkJobs: BulkJob[] }>('/api/bulk-jobs', { signal }).then((body) => body.bulkJobs),
  });
}

export function bulkJobQueryOptions(id: string) {
  return queryOptions({
    queryKey: generationQueryKeys.bulkJob(id),
    queryFn: ({ signal }) =>
      api.get<BulkJobDetail>(`/api/bulk-jobs/${encodeURIComponent(id)}`, { signal }),
    retry: (failureCount, error) => !isNotFound(error) && failureCount < 1,
  });
}

export function isNotFound(error: unknown): boolean {
  return isApiError(error) && error.status === 404;
}

export function generateFromPreset(body: {
  userModelId: string;
  presetId: string;
}): Promise<Generation> {
  return api
    .post<{ generation: Generation }>('/api/generations', body)
    .then((result) => result.generation);
}

export function generateFromPrompt(body: {
  userModelId: string;
  prompt: string;
}): Promise<Generation> {
  return api
    .post<{ generation: Generation }>('/api/generations/custom', body)
    .then((result) => result.generation);
}

export async function startBulk(body: BulkRequest): Promise<BulkCreated> {
  const created = await api.post<BulkCreated | undefined>('/api/bulk-jobs', body);
  // An answer without the job is the specification's "no data returned".
  if (!created?.bulkJob)
    throw new ApiError(201, clientErrorCodes.invalidResponse, bulkMessages.createFailedNoData);
  return created;
}

export function deleteGeneration(id: string): Promise<void> {
  return api.delete<void>(`/api/generations/${encodeURIComponent(id)}`);
}

export function markViewed(id: string): Promise<Generation> {
  return api
    .post<{ generation: Generation }>(`/api/generations/${encodeURIComponent(id)}/viewed`)
    .then((result) => result.generation);
}

export function setFavourite(id: string, favourite: boolean): Promise<Generation> {
  return api
    .put<{
      generation: Generation;
    }>(`/api/generations/${encodeURIComponent(id)}/favourite`, { favourite })
    .then((result) => result.generation);
}

export const favouritesZipUrl = '/api/generations/favourites/zip';

/** The selected images as one zip (the server keeps only the user's own). */
export function selectionZipUrl(ids: readonly string[]): string {
  return `/api/generations/zip?ids=${ids.map(encodeURIComponent).join(',')}`;
}

export function bulkZipUrl(id: string): string {
  return `/api/bulk-jobs/${encodeURIComponent(id)}/zip`;
}

/**
 * Writes a fresh copy of one generation everywhere it is cached (its detail, the lists' pages,
 * its bulk job), so a favourite or a viewed mark shows at once without refetching lists.
 */
export function storeGeneration(queryClient: QueryClient, generation: Generation): void {
  queryClient.setQueryData(generationQueryKeys.detail(generation.id), generation);
  queryClient.setQueriesData<InfiniteData<GenerationsPage>>(
    { queryKey: generationQueryKeys.lists },
    (data) =>
      data
        ? {
            ...data,
            pages: data.pages.map((page) => ({
              ...page,
              generations: page.generations.map((item) =>
                item.id === generation.id ? generation : item,
              ),
            })),
          }
        : data,
  );
  if (generation.bulkJobId) {
    queryClient.setQueryData<BulkJobDetail>(
      generationQueryKeys.bulkJob(generation.bulkJobId),
      (data) =>
        data
          ? {
              ...data,
              generations: data.generations.map((item) =>
                item.id === generation.id ? generation : item,
              ),
            }
          : data,
    );
  }
}

/** What the page does with a failed generation or bulk request: say why, maybe go somewhere. */
export interface RequestFailure {
  message: string;
  redirectTo?: string;
}

/**
 * The server's refusal in the user's words and the page it leads to (spec §8): no credits →
 * /buy-credits, no plan → /subscription, the wrong plan → the plans (from=custom-prompt for the
 * custom panel), signed out → /login. Other refusals carry their own message. A bulk job the
 * server failed to create says so with the server's words ('Failed to create bulk job: …', or
 * '… - no data returned' for an answer without the job); any other failure without an answer
 * (network, server error) shows the flow's fallback.
 */
export function requestFailure(error: unknown, flow: 'preset' | 'custom' | 'bulk'): RequestFailure {
  const fallback = flow === 'bulk' ? bulkMessages.startFailed : generationMessages.failed;
  if (!isApiError(error)) return { message: fallback };
  switch (error.code) {
    case 'INSUFFICIENT_CREDITS':
      return { message: error.message, redirectTo: routes.buyCredits };
    case 'SUBSCRIPTION_REQUIRED':
      return { message: error.message, redirectTo: routes.subscription };
    case 'TIER_REQUIRED':
      return {
        message: error.message,
        redirectTo: flow === 'custom' ? customUpgradePath : routes.subscription,
      };
    case 'UNAUTHORIZED':
      return { message: generationMessages.mustBeLoggedIn, redirectTo: routes.login };
  }
  if (error.status >= 400 && error.status < 500) return { message: error.message };
  if (flow === 'bulk' && error.code === clientErrorCodes.invalidResponse)
    return { message: bulkMessages.createFailedNoData };
  if (flow === 'bulk' && error.status >= 500)
    return { message: bulkMessages.createFailed(error.message) };
  return { message: fallback };
}

/**
 * Live generation news, registered once by the app:
 * - `generation.updated` {generationId, status, bulkJobId}: that generation, the list it is in
 *   (single ones, or its bulk job) are stale.
 * - `bulk-job.updated` {bulkJobId, status, completedImages, failedImages, totalImages}: the
 *   counters are patched in place (the progress bar moves at once) and the lists refetch.
 */
export function registerGenerationEventHandlers(): () => void {
  const unregisterGeneration = registerEventHandler(
    events.generationUpdated,
    (event, queryClient) => {
      const { generationId, bulkJobId } = event.data;
      // A deleted one refetches too: its page then says it is gone.
      void queryClient.invalidateQueries({ queryKey: generationQueryKeys.detail(generationId) });
      if (bulkJobId) {
        void queryClient.invalidateQueries({ queryKey: generationQueryKeys.bulkJob(bulkJobId) });
        // Favourites include bulk images (a heart set in another tab, for one).
        void queryClient.invalidateQueries({ queryKey: generationQueryKeys.list('favourites') });
      } else {
        void queryClient.invalidateQueries({ queryKey: generationQueryKeys.lists });
      }
    },
  );

  const unregisterBulk = registerEventHandler(events.bulkJobUpdated, (event, queryClient) => {
    const { bulkJobId: id, status, completedImages, failedImages, totalImages } = event.data;
    const patch: Partial<BulkJob> = { status, completedImages, failedImages, totalImages };
    queryClient.setQueryData<BulkJobDetail>(generationQueryKeys.bulkJob(id), (data) =>
      data ? { ...data, bulkJob: { ...data.bulkJob, ...patch } } : data,
    );
    queryClient.setQueryData<BulkJob[]>(generationQueryKeys.bulkJobList, (data) =>
      data?.map((job) => (job.id === id ? { ...job, ...patch } : job)),
    );
    // The job's images refetch on their own `generation.updated`.
    void queryClient.invalidateQueries({ queryKey: generationQueryKeys.bulkJobList });
  });

  return () => {
    unregisterGeneration();
    unregisterBulk();
  };
}
