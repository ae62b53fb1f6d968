import { queryOptions } from '@tanstack/react-query';
// Type-only: the schemas live with zod, which the quiz bundle need not download.
import type { QuizImagesResponse } from '../../../common/api/catalog.ts';
import type { RedirectResponse } from '../../../common/api/billing.ts';
import { routes } from '../../../common/product/routes.ts';
import { api } from '../../lib/api-client.ts';

export const quizImagesQueryKey = ['catalog', 'quiz-images'] as const;

export function quizImagesQueryOptions() {
  return queryOptions({
    queryKey: quizImagesQueryKey,
    queryFn: ({ signal }) => api.get<QuizImagesResponse>('/api/catalog/quiz-images', { signal }),
    // The operator rarely changes the quiz; one read per visit is plenty.
    staleTime: 30 * 60_000,
  });
}

/**
 * The yearly offer's checkout, for a signed-in user. The provider's Cancel button brings them
 * back to the results (where the offer is), not to the plan page a quiz taker never saw.
 */
export function startOfferCheckout(): Promise<RedirectResponse> {
  return api.post<RedirectResponse>('/api/billing/yearly-checkout', {
    returnPath: routes.quizResults,
  });
}
