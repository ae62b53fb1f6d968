import { useEffect, useState, type FormEvent } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Sparkles } from 'lucide-react';
import { Link, useNavigate } from 'react-router';
import { trainingMessages } from '../../../../common/messages/models.ts';
import { pageTitleMessages } from '../../../../common/messages/shell.ts';
import { nameModelMessages } from '../../../../common/messages/studio.ts';
import { modelName } from '../../../../common/product/limits.ts';
import { routes } from '../../../../common/product/routes.ts';
import { timings } from '../../../../common/product/timings.ts';
import { Button } from '../../../components/ui/button.tsx';
import { Card } from '../../../components/ui/card.tsx';
import { FormAlert } from '../../../components/ui/form-alert.tsx';
import { describedBy, fieldHintId, FormField } from '../../../components/ui/form-field.tsx';
import { Input } from '../../../components/ui/input.tsx';
import { Skeleton, SkeletonGroup } from '../../../components/ui/skeleton.tsx';
import { notify } from '../../../components/ui/toast.ts';
import { isApiError } from '../../../lib/api-client.ts';
import { usePageTitle } from '../../../lib/use-page-title.ts';
import { sessionQueryKey, useSession } from '../../../lib/session.ts';
import { billingQueryKey } from '../../billing/billing-api.ts';
import { FlowPage } from '../components/flow-page.tsx';
import { trainingPayment } from '../create-model-rules.ts';
import { createModel, draftQueryOptions, studioQueryKeys, updateDraft } from '../studio-api.ts';
import { usePhotoRuleGuard } from '../use-photo-rule-guard.ts';

const text = nameModelMessages;
const inputId = 'model-name';
const errorId = 'model-name-error';

/**
 * /name-model: the model's name (trimmed, required, at most 60 characters), a note of what the
 * training will use, and Start Training, which creates the model from the draft's photos and
 * starts its training, then goes to the dashboard where the training banner shows. Without a
 * gender in the draft it says so and goes back to /select-gender.
 */
export function NameModelPage() {
  usePageTitle(pageTitleMessages.nameModel);
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { subscription } = useSession();
  const draft = useQuery(draftQueryOptions());
  const [name, setName] = useState<string | null>(null);
  const [fieldError, setFieldError] = useState<string | null>(null);
  const value = name ?? draft.data?.name ?? '';

  const saveName = useMutation({
    mutationFn: (next: string) => updateDraft({ name: next }),
    onSuccess: (saved) => queryClient.setQueryData(studioQueryKeys.draft, saved),
  });

  const start = useMutation({
    mutationFn: createModel,
    onSuccess: () => {
      notify.success(trainingMessages.started);
      void navigate(routes.dashboard);
      // The new model used up the draft (its photos, gender and name) and a training.
      void queryClient.invalidateQueries({ queryKey: studioQueryKeys.all });
      void queryClient.invalidateQueries({ queryKey: sessionQueryKey });
      void queryClient.invalidateQueries({ queryKey: billingQueryKey });
    },
  });

  // Kept in the draft as typed (after a pause), so a reload or coming back later keeps the name;
  // not once the model exists, whose creation starts a new draft.
  const savedName = draft.data?.name;
  const { mutate: saveNameNow } = saveName;
  const keepDraft = start.isIdle;
  useEffect(() => {
    if (name === null || savedName === undefined || name === savedName || !keepDraft) return;
    const timer = setTimeout(() => saveNameNow(name), timings.draftNameSaveMs);
    return () => clearTimeout(timer);
  }, [name, savedName, saveNameNow, keepDraft]);

  usePhotoRuleGuard(start.isIdle);
  const gender = draft.data?.gender ?? null;
  // Not once the model exists: its creation empties the draft while the page is being left.
  const genderMissing = draft.isSuccess && gender === null && start.isIdle;
  useEffect(() => {
    if (!genderMissing) return;
    notify.error(text.genderMissing);
    void navigate(routes.selectGender, { replace: true });
  }, [genderMissing, navigate]);

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (start.isPending) return;
    const trimmed = value.trim();
    if (!trimmed) {
      setFieldError(text.nameRequired);
      return;
    }
    if (trimmed.length > modelName.maxLength) {
      setFieldError(text.nameTooLong(modelName.maxLength));
      return;
    }
    setFieldError(null);
    if (!gender) {
      notify.error(text.genderMissing);
      void navigate(routes.selectGender);
      return;
    }
    start.mutate({ name: trimmed, gender });
  };

  const payment = trainingPayment(subscription);
  const apiError = start.error ? (isApiError(start.error) ? start.error : null) : null;
  const apiMessage = start.error ? (apiError?.message ?? trainingMessages.startFailed) : null;

  return (
    <FlowPage
      size="sm"
      title={text.title}
      description={text.subtitle}
      back={{ to: routes.selectGender, label: text.back }}
    >
      {draft.isPending ? (
        <SkeletonGroup className="flex flex-col gap-4">
          <Skeleton className="h-11 w-full" />
          <Skeleton shape="pill" className="h-12 w-48" />
        </SkeletonGroup>
      ) : (
        <form noValidate onSubmit={onSubmit} className="flex flex-col gap-6">
          <FormField
            id={inputId}
            label={text.label}
            hint={`${value.trim().length}/${modelName.maxLength}`}
          >
            <Input
              id={inputId}
              name="name"
              value={value}
              placeholder={text.placeholder}
              maxLength={modelName.maxLength}
              autoComplete="off"
              required
              invalid={Boolean(fieldError)}
              aria-describedby={describedBy(fieldHintId(inputId), fieldError && errorId)}
              onChange={(event) => {
                setName(event.target.value);
                if (fieldError) setFieldError(null);
              }}
              onBlur={() => {
                if (start.isIdle && value !== (draft.data?.name ?? '')) saveName.mutate(value);
              }}
            />
          </FormField>
          {fieldError ? <FormAlert id={errorId}>{fieldError}</FormAlert> : null}

          <Card className="flex flex-col gap-1 p-4 text-sm text-neutral-700">
            <p>{payment === 'free-training' ? text.freeTrainingNote : text.creditsNote}</p>
            {payment === 'free-training' ? null : (
              <p>{text.creditsBalance(subscription?.credits ?? 0)}</p>
            )}
          </Card>

          {apiMessage ? (
            <FormAlert>
              <p>{apiMessage}</p>
              {apiError?.code === 'SUBSCRIPTION_REQUIRED' ? (
                <Button asChild size="sm" variant="outline" className="mt-3">
                  <Link to={routes.subscription}>{text.seePlans}</Link>
                </Button>
              ) : apiError?.code === 'INSUFFICIENT_CREDITS' ? (
                <Button asChild size="sm" variant="outline" className="mt-3">
                  <Link to={routes.buyCredits}>{text.buyCredits}</Link>
                </Button>
              ) : null}
            </FormAlert>
          ) : null}

          <Button type="submit" size="lg" className="self-start" loading={start.isPending}>
            {start.isPending ? null : <Sparkles aria-hidden="true" className="size-4" />}
            {start.isPending ? text.submitting : text.submit}
          </Button>
        </form>
      )}
    </FlowPage>
  );
}
