import { useEffect, useRef } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { generationMessages } from '../../../common/messages/generation.ts';
import { notify } from '../../components/ui/toast.ts';
import {
  generationQueryKeys,
  markViewed,
  setFavourite,
  storeGeneration,
  type Generation,
} from './generation-api.ts';

/** Adds a generation to the favourites or takes it out; every cached copy follows at once. */
export function useToggleFavourite() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (generation: Pick<Generation, 'id' | 'favourite'>) =>
      setFavourite(generation.id, !generation.favourite),
    onSuccess: (fresh) => {
      storeGeneration(queryClient, fresh);
      // Membership of the favourites list changed: that list refetches.
      void queryClient.invalidateQueries({ queryKey: generationQueryKeys.list('favourites') });
    },
    onError: () => notify.error(generationMessages.favouriteFailed),
  });
}

/**
 * Marks a generation as seen while it is shown (modal open, detail page), once it has an outcome:
 * a processing one is marked when it finishes in front of the user. Each id is sent once.
 */
export function useMarkViewed(generation: Generation | null | undefined, showing: boolean): void {
  const queryClient = useQueryClient();
  const sent = useRef(new Set<string>());
  const id = generation?.id;
  const due = showing && generation && generation.status !== 'processing' && !generation.viewed;

  useEffect(() => {
    if (!due || !id || sent.current.has(id)) return;
    sent.current.add(id);
    markViewed(id)
      .then((fresh) => storeGeneration(queryClient, fresh))
      .catch((error: unknown) => {
        // Not worth a toast: the "New" badge simply stays until the next time.
        sent.current.delete(id);
        console.warn('Marking a generation as viewed failed', error);
      });
  }, [due, id, queryClient]);
}
