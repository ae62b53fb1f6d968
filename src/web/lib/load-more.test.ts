import { InfiniteQueryObserver, QueryClient } from '@tanstack/react-query';
import { afterEach, describe, expect, it } from 'vitest';
import { loadMore } from './load-more.ts';

/** A list of 3 pages, each answered 20 ms after it is asked for. */
function slowList() {
  const client = new QueryClient();
  const observer = new InfiniteQueryObserver(client, {
    queryKey: ['list'],
    queryFn: async ({ pageParam }) => {
      await new Promise((resolve) => setTimeout(resolve, 20));
      return { page: pageParam };
    },
    initialPageParam: 0,
    getNextPageParam: (last: { page: number }) => (last.page < 2 ? last.page + 1 : undefined),
  });
  const unsubscribe = observer.subscribe(() => {});
  return { client, observer, unsubscribe };
}

let cleanUp = () => {};
afterEach(() => cleanUp());

describe('Load more', () => {
  it('brings the next page although a live update refetches the list meanwhile', async () => {
    const { client, observer, unsubscribe } = slowList();
    cleanUp = () => {
      unsubscribe();
      client.clear();
    };
    await observer.refetch();
    // A plain fetch of the next page is cancelled by the update's refetch: the click is lost.
    setTimeout(() => void client.invalidateQueries({ queryKey: ['list'] }), 5);
    const plain = await observer.fetchNextPage();
    expect(plain.data?.pages).toHaveLength(1);

    await observer.refetch();
    setTimeout(() => void client.invalidateQueries({ queryKey: ['list'] }), 5);
    await loadMore(observer.getCurrentResult());
    expect(observer.getCurrentResult().data?.pages.map((page) => page.page)).toEqual([0, 1]);
  });

  it('stops at the end of the list', async () => {
    const { client, observer, unsubscribe } = slowList();
    cleanUp = () => {
      unsubscribe();
      client.clear();
    };
    await observer.refetch();
    await loadMore(observer.getCurrentResult());
    await loadMore(observer.getCurrentResult());
    await loadMore(observer.getCurrentResult());
    expect(observer.getCurrentResult().data?.pages).toHaveLength(3);
    expect(observer.getCurrentResult().hasNextPage).toBe(false);
  });
});
