import {
  infiniteQueryOptions,
  queryOptions,
  type InfiniteData,
  type QueryClient,
} from '@tanstack/react-query';
// Type-only: the schemas live with zod, which these pages need not download.
import type { GenerationsPage } from '../../../common/api/generation.ts';
import type { TryOn, tryOnEvents, TryOnsPage } from '../../../common/api/tryon.ts';
import { lists } from '../../../common/product/limits.ts';
import { api } from '../../lib/api-client.ts';
import { registerEventHandler } from '../../lib/event-stream.ts';

export const tryOnQueryKeys = {
  all: ['tryons'] as const,
  list: ['tryons', 'list'] as const,
  /** Under `generations`, so whatever refreshes the user's generations refreshes the picker. */
  picker: ['generations', 'tryon-picker'] as const,
};

// The event name of `tryOnEvents` (common/api/tryon.ts), checked against it by type only.
const events = { tryOnUpdated: 'tryon.updated' } as const satisfies typeof tryOnEvents;

/** The user's try-ons, newest first, a page at a time (the rest on demand). */
export function tryOnsQueryOptions() {
  return infiniteQueryOptions({
    queryKey: tryOnQueryKeys.list,
    queryFn: ({ signal, pageParam }) =>
      api.get<TryOnsPage>('/api/tryons', { signal, query: { cursor: pageParam } }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });
}

/** The person picker: the user's latest completed, unblocked generations (spec: 20). */
export function tryOnPickerQueryOptions() {
  return queryOptions({
    queryKey: tryOnQueryKeys.picker,
    queryFn: ({ signal }) =>
      api.get<GenerationsPage>('/api/generations', {
        signal,
        query: { filter: 'complete', limit: lists.tryOnPicker },
      }),
  });
}

export type TryOnPerson = { kind: 'upload'; file: File } | { kind: 'generation'; id: string };

/**
 * Starts a try-on: one multipart request with the garment and the person (a file, or the id of
 * one of the user's generations). Never retried: a repeat would spend a second credit.
 */
export function startTryOn(person: TryOnPerson, garment: File): Promise<{ tryOn: TryOn }> {
  const body = new FormData();
  if (person.kind === 'upload') body.append('person', person.file, person.file.name);
  else body.append('personGenerationId', person.id);
  body.append('garment', garment, garment.name);
  // Two photos of up to 10 MB each on a phone connection need far more than the usual 10 s.
  return api.post<{ tryOn: TryOn }>('/api/tryons', body, { timeoutMs: 120_000 });
}

/** Puts a try-on the server just answered at the head of the cached list (or replaces it). */
export function putTryOn(queryClient: QueryClient, tryOn: TryOn): void {
  queryClient.setQueryData<InfiniteData<TryOnsPage>>(tryOnQueryKeys.list, (current) => {
    const [first, ...older] = current?.pages ?? [];
    if (!current || !first) return current;
    const others = first.tryOns.filter((item) => item.id !== tryOn.id);
    return { ...current, pages: [{ ...first, tryOns: [tryOn, ...others] }, ...older] };
  });
}

/**
 * `tryon.updated` { tryOnId, status }: a try-on started, finished or failed. The list is
 * refetched (fresh signed URLs come with it). Registered by the tab while it is shown; when it
 * is not, the list is refetched on the next visit anyway.
 */
export function registerTryOnEventHandlers(): () => void {
  return registerEventHandler(events.tryOnUpdated, (_event, queryClient) => {
    void queryClient.invalidateQueries({ queryKey: tryOnQueryKeys.all });
  });
}

/**
 * Saves a result to the device. The file is fetched first (same origin, signed URL) so a
 * failure can be reported, then handed to the browser as a download.
 */
export async function downloadImage(url: string, fileName: string): Promise<void> {
  const response = await fetch(url, { credentials: 'same-origin' });
  if (!response.ok) throw new Error(`Download failed with ${response.status}`);
  const blob = await response.blob();
  const objectUrl = URL.createObjectURL(blob);
  try {
    const link = document.createElement('a');
    link.href = objectUrl;
    link.download = fileName;
    link.rel = 'noopener';
    document.body.append(link);
    link.click();
    link.remove();
  } finally {
    // Give the browser a moment to start the download before the URL goes away.
    setTimeout(() => URL.revokeObjectURL(objectUrl), 10_000);
  }
}
