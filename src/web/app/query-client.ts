import { QueryClient } from '@tanstack/react-query';
import { network } from '../../common/product/timings.ts';
import { isApiError } from '../lib/api-client.ts';

/**
 * The cache's defaults, from the specification: one retry, no refetch when the window regains
 * focus (the event stream keeps data fresh instead). A 4xx answer is not retried: asking again
 * cannot change "not found" or "no credits".
 */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        retry: (failureCount, error) =>
          failureCount < network.queryRetries &&
          !(isApiError(error) && isClientError(error.status)),
        refetchOnWindowFocus: network.refetchOnWindowFocus,
        staleTime: 30_000,
      },
      mutations: {
        // Mutations spend credits and start jobs; repeating one is the caller's decision.
        retry: false,
      },
    },
  });
}

function isClientError(status: number): boolean {
  return status >= 400 && status < 500;
}
