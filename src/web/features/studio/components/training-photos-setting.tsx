import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { StudioSettings } from '../../../../common/api/studio.ts';
import { modelsMessages } from '../../../../common/messages/models.ts';
import { Card, CardContent } from '../../../components/ui/card.tsx';
import { Label } from '../../../components/ui/label.tsx';
import { Switch } from '../../../components/ui/switch.tsx';
import { notify } from '../../../components/ui/toast.ts';
import { settingsQueryOptions, studioQueryKeys, updateSettings } from '../studio-api.ts';

const text = modelsMessages.settings;
const switchId = 'keep-training-photos';

/**
 * The account page's "Keep my training photos" switch. Off by default: the photos and their zip
 * are deleted once training finishes. The switch moves at once and goes back if saving fails.
 */
export function TrainingPhotosSetting() {
  const queryClient = useQueryClient();
  const query = useQuery(settingsQueryOptions());

  const save = useMutation({
    mutationFn: updateSettings,
    onMutate: async (next: StudioSettings) => {
      await queryClient.cancelQueries({ queryKey: studioQueryKeys.settings });
      const previous = queryClient.getQueryData<StudioSettings>(studioQueryKeys.settings);
      queryClient.setQueryData(studioQueryKeys.settings, next);
      return { previous };
    },
    onSuccess: (saved) => {
      queryClient.setQueryData(studioQueryKeys.settings, saved);
      notify.success(text.saved);
    },
    onError: (_error, _next, context) => {
      if (context?.previous) queryClient.setQueryData(studioQueryKeys.settings, context.previous);
      notify.error(text.saveFailed);
    },
  });

  return (
    <section aria-labelledby="training-photos-title">
      <Card>
        <CardContent className="flex flex-col gap-4">
          <h2 id="training-photos-title" className="text-lg font-semibold text-neutral-950">
            {text.title}
          </h2>
          <div className="flex items-start justify-between gap-6">
            <div className="flex flex-col gap-1">
              <Label htmlFor={switchId}>{text.keepPhotos}</Label>
              <p id={`${switchId}-hint`} className="text-sm leading-relaxed text-neutral-600">
                {text.keepPhotosHint}
              </p>
              {query.isError ? (
                <p role="alert" className="text-sm text-danger-700">
                  {text.loadFailed}
                </p>
              ) : null}
            </div>
            <Switch
              id={switchId}
              aria-describedby={`${switchId}-hint`}
              checked={query.data?.keepTrainingPhotos ?? false}
              disabled={!query.data || save.isPending}
              onCheckedChange={(checked) => save.mutate({ keepTrainingPhotos: checked })}
            />
          </div>
        </CardContent>
      </Card>
    </section>
  );
}
