import { useState, type FormEvent } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ArrowRight, Check } from 'lucide-react';
import { useNavigate } from 'react-router';
import { pageTitleMessages } from '../../../../common/messages/shell.ts';
import { selectGenderMessages } from '../../../../common/messages/studio.ts';
import { routes } from '../../../../common/product/routes.ts';
import { type Gender, genders } from '../../../../common/product/training.ts';
import { Button } from '../../../components/ui/button.tsx';
import { FormAlert } from '../../../components/ui/form-alert.tsx';
import { Skeleton, SkeletonGroup } from '../../../components/ui/skeleton.tsx';
import { cn } from '../../../lib/cn.ts';
import { usePageTitle } from '../../../lib/use-page-title.ts';
import { FlowPage } from '../components/flow-page.tsx';
import { editPhotosPath } from '../photo-rules.ts';
import { draftQueryOptions, studioQueryKeys, updateDraft } from '../studio-api.ts';
import { usePhotoRuleGuard } from '../use-photo-rule-guard.ts';

const text = selectGenderMessages;

/**
 * /select-gender: Man, Woman or Other as radio cards (arrow keys move between them), saved to the
 * server-side draft when chosen so a reload keeps it. Back goes to the photos in edit mode, the
 * way to change photos once their validation is complete; photos that no longer satisfy the rule
 * send the user back there.
 */
export function SelectGenderPage() {
  usePageTitle(pageTitleMessages.selectGender);
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const draft = useQuery(draftQueryOptions());
  const [choice, setChoice] = useState<Gender | null>(null);
  const selected = choice ?? draft.data?.gender ?? null;
  usePhotoRuleGuard(true);

  const remember = useMutation({
    mutationFn: (gender: Gender) => updateDraft({ gender }),
    onSuccess: (saved) => queryClient.setQueryData(studioQueryKeys.draft, saved),
  });

  const save = useMutation({
    mutationFn: (gender: Gender) => updateDraft({ gender }),
    onSuccess: (saved) => {
      queryClient.setQueryData(studioQueryKeys.draft, saved);
      void navigate(routes.nameModel);
    },
  });

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (selected) save.mutate(selected);
  };

  return (
    <FlowPage
      title={text.title}
      description={text.subtitle}
      back={{ to: editPhotosPath, label: text.backToPhotos }}
    >
      <form onSubmit={onSubmit} className="flex flex-col gap-6">
        {draft.isPending ? (
          <SkeletonGroup className="grid gap-3 md:grid-cols-3">
            {genders.map((gender) => (
              <Skeleton key={gender} shape="card" className="h-24 w-full" />
            ))}
          </SkeletonGroup>
        ) : (
          <fieldset className="flex flex-col gap-3">
            <legend className="sr-only">{text.legend}</legend>
            <div className="grid gap-3 md:grid-cols-3">
              {genders.map((gender) => (
                <label key={gender} className="relative block">
                  <input
                    type="radio"
                    name="gender"
                    value={gender}
                    checked={selected === gender}
                    onChange={() => {
                      setChoice(gender);
                      remember.mutate(gender);
                    }}
                    className="peer sr-only"
                  />
                  <span
                    className={cn(
                      'flex h-24 cursor-pointer items-center justify-between gap-3 rounded-card border-2 bg-white px-6 text-lg font-semibold text-neutral-900 shadow-card transition-colors',
                      'border-neutral-200 hover:border-accent-600/50',
                      'peer-checked:border-accent-600 peer-checked:bg-accent-50',
                      'peer-focus-visible:outline-2 peer-focus-visible:outline-offset-2 peer-focus-visible:outline-accent-600',
                    )}
                  >
                    {text.options[gender]}
                    <Check
                      aria-hidden="true"
                      className={cn(
                        'size-5 text-accent-700',
                        selected === gender ? 'opacity-100' : 'opacity-0',
                      )}
                    />
                  </span>
                </label>
              ))}
            </div>
          </fieldset>
        )}
        {save.isError || remember.isError ? <FormAlert>{text.saveFailed}</FormAlert> : null}
        <Button
          type="submit"
          size="lg"
          className="self-start"
          disabled={!selected}
          loading={save.isPending}
        >
          {text.continue}
          <ArrowRight aria-hidden="true" className="size-4" />
        </Button>
      </form>
    </FlowPage>
  );
}
