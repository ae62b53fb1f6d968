import { useEffect } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { uploadMessages } from '../../../common/messages/studio.ts';
import { notify } from '../../components/ui/toast.ts';
import { editPhotosPath, photoContinueRule } from './photo-rules.ts';
import { photosQueryOptions } from './studio-api.ts';

/**
 * The screens after the photos (/select-gender, /name-model) need the photos to satisfy the
 * upload rule still: they may have changed in another tab, or the user came by address. If they
 * do not, the user goes back to the photos and is told why. `active` is false once the model
 * was created (its creation empties the draft while the page is being left).
 */
export function usePhotoRuleGuard(active: boolean): void {
  const navigate = useNavigate();
  const photos = useQuery(photosQueryOptions());
  const rule = photos.data ? photoContinueRule(photos.data.counts) : undefined;
  const reason =
    !active || !rule || rule.canContinue
      ? null
      : rule.issue === 'validating'
        ? uploadMessages.stillValidating
        : rule.message;
  useEffect(() => {
    if (!reason) return;
    notify.error(reason);
    void navigate(editPhotosPath, { replace: true });
  }, [reason, navigate]);
}
