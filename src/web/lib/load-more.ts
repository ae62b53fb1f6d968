import type { InfiniteData, InfiniteQueryObserverResult } from '@tanstack/react-query';

/**
 * Load more of an infinite list, so the click is never lost: a live update arriving meanwhile
 * invalidates the list, and its refetch cancels the fetch of the next page (TanStack Query
 * cancels a fetch in flight on invalidation), which then ends with no new page. Asked again, the
 * next page is fetched; a page that came, an error or the end of the list stops it.
 */
export async function loadMore<Page>(
  query: Pick<InfiniteQueryObserverResult<InfiniteData<Page>>, 'data' | 'fetchNextPage'>,
): Promise<void> {
  let pages = query.data?.pages.length ?? 0;
  for (let attempt = 0; attempt < 3; attempt += 1) {
    const result = await query.fetchNextPage();
    const now = result.data?.pages.length ?? 0;
    if (now > pages || result.isError || !result.hasNextPage) return;
    pages = now;
  }
}
