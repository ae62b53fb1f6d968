import { useId, useState } from 'react';
import { useMutation, useQuery } from '@tanstack/react-query';
import { Coins, Lightbulb, Lock, Sparkles } from 'lucide-react';
import { Link, useLocation, useNavigate } from 'react-router';
import { catalogMessages } from '../../../../common/messages/catalog.ts';
import { bulkMessages, generationMessages } from '../../../../common/messages/generation.ts';
import { modelsMessages } from '../../../../common/messages/models.ts';
import { commonMessages } from '../../../../common/messages/shell.ts';
import { prompt as promptRules } from '../../../../common/product/limits.ts';
import { paths, routes } from '../../../../common/product/routes.ts';
import { Button } from '../../../components/ui/button.tsx';
import { Card } from '../../../components/ui/card.tsx';
import { describedBy, fieldHintId } from '../../../components/ui/form-field.tsx';
import { Label } from '../../../components/ui/label.tsx';
import { Skeleton, SkeletonGroup } from '../../../components/ui/skeleton.tsx';
import { StickyActionBar } from '../../../components/ui/sticky-action-bar.tsx';
import { Textarea } from '../../../components/ui/textarea.tsx';
import { notify } from '../../../components/ui/toast.ts';
import { cn } from '../../../lib/cn.ts';
import { useSession } from '../../../lib/session.ts';
import { modelsQueryOptions } from '../../studio/studio-api.ts';
import {
  generateFromPrompt,
  requestFailure,
  startBulk,
  type BulkCreated,
  type Generation,
} from '../generation-api.ts';
import {
  bulkQueuedMessage,
  canCustom,
  checkCustomGeneration,
  customButtonState,
  customUpgradePath,
  defaultModelId,
  generatedTabPath,
  isUsableModel,
  keepSelectable,
  toggleSelectAll,
  type CheckOutcome,
} from '../generation-rules.ts';
import { GenerationResult } from './generation-result.tsx';
import { MultiModelPicker } from './model-picker.tsx';
import { NoModelsPrompt } from './no-models-prompt.tsx';

const text = generationMessages;

type Submission = Extract<CheckOutcome, { ok: true }>;
type SubmitResult =
  { kind: 'single'; generation: Generation } | { kind: 'bulk'; created: BulkCreated };

/**
 * Custom Image Generation (the dashboard's Custom tab and /custom-prompt): the user's models
 * (several make one custom bulk), a prompt, tips, and the button in the state the plan, the
 * models and the balance call for. Without Pro access everything shows but is locked, with the
 * way to upgrade.
 */
export function CustomGenerationPanel({ headingLevel = 'h2' }: { headingLevel?: 'h1' | 'h2' }) {
  const Heading = headingLevel;
  const session = useSession();
  const subscription = session.subscription;
  const models = useQuery(modelsQueryOptions());
  const navigate = useNavigate();
  const { pathname, search } = useLocation();
  const ids = useId();
  const promptId = `${ids}-prompt`;
  const countId = `${ids}-count`;

  const [prompt, setPrompt] = useState('');
  // Null until the user picks: the default (their chosen model, else the newest) applies.
  const [choice, setChoice] = useState<ReadonlySet<string> | null>(null);
  // The latest single picture asked for here, shown under the button from progress to picture.
  const [latest, setLatest] = useState<Generation | null>(null);

  const list = models.data?.models ?? [];
  const hasUsableModel = list.some(isUsableModel);
  const unlocked = canCustom(subscription);
  const defaultId = defaultModelId(list, models.data?.selectedModelId);
  const selected = keepSelectable(list, choice ?? new Set(defaultId ? [defaultId] : []));
  const orderedSelection = list.map((model) => model.id).filter((id) => selected.has(id));

  const submit = useMutation({
    mutationFn: async (request: Submission): Promise<SubmitResult> =>
      request.kind === 'single'
        ? {
            kind: 'single',
            generation: await generateFromPrompt({
              userModelId: request.userModelId,
              prompt: request.prompt,
            }),
          }
        : {
            kind: 'bulk',
            created: await startBulk({
              kind: 'custom',
              prompt: request.prompt,
              userModelIds: request.userModelIds,
            }),
          },
    onSuccess: (result) => {
      if (result.kind === 'single') {
        setLatest(result.generation);
        notify.success(text.queued, {
          action: { label: text.viewImages, onClick: () => void navigate(generatedTabPath) },
        });
        return;
      }
      notify.success(bulkQueuedMessage(result.created));
      void navigate(paths.bulkGeneration(result.created.bulkJob.id));
    },
    onError: (error, request) => {
      const failure = requestFailure(error, request.kind === 'bulk' ? 'bulk' : 'custom');
      notify.error(failure.message);
      if (failure.redirectTo) void navigate(failure.redirectTo);
    },
  });

  const button = customButtonState({
    subscription,
    hasUsableModel,
    submitting: submit.isPending,
    selectedCount: selected.size,
  });

  const onGenerate = () => {
    if (button.kind === 'createModelFirst') {
      void navigate(`${routes.createModel}?redirect=${encodeURIComponent(pathname + search)}`);
      return;
    }
    const outcome = checkCustomGeneration({
      signedIn: session.status === 'signed-in',
      subscription,
      prompt,
      selected: orderedSelection,
    });
    if (!outcome.ok) {
      notify.error(outcome.message);
      if (outcome.redirectTo) void navigate(outcome.redirectTo);
      return;
    }
    submit.mutate(outcome);
  };

  const promptDisabled = !unlocked || !hasUsableModel;
  const TipsHeading = headingLevel === 'h1' ? 'h2' : 'h3';

  return (
    <section aria-labelledby={`${ids}-title`} className="flex flex-col gap-6">
      <header className="flex flex-col gap-1.5">
        <Heading
          id={`${ids}-title`}
          className={cn(
            'font-semibold text-neutral-950',
            headingLevel === 'h1' ? 'text-3xl md:text-4xl' : 'text-2xl',
          )}
        >
          {text.customTitle}
        </Heading>
        <p className="text-base text-neutral-600">{text.customHint}</p>
      </header>

      {unlocked ? null : (
        <div
          role="note"
          data-testid="custom-pro-banner"
          className="flex flex-col gap-3 rounded-card border border-accent-200 bg-accent-50/70 p-4 md:flex-row md:items-center md:justify-between md:p-5"
        >
          <div className="flex items-start gap-3">
            <Lock aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-accent-700" />
            <div className="flex flex-col gap-0.5">
              <p className="font-semibold text-neutral-950">{text.proBanner}</p>
              <p className="text-sm text-neutral-700">{text.customPromptsProOnly}</p>
            </div>
          </div>
          <Button asChild size="sm" className="self-start md:self-auto">
            <Link to={customUpgradePath}>{text.upgradeToUnlock}</Link>
          </Button>
        </div>
      )}

      <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_20rem]">
        <div className="flex min-w-0 flex-col gap-6">
          <Card className="flex flex-col gap-6 p-5 md:p-6">
            {models.isPending ? (
              <SkeletonGroup className="grid gap-2 sm:grid-cols-2">
                <Skeleton className="h-16" />
                <Skeleton className="h-16" />
              </SkeletonGroup>
            ) : models.isError ? (
              <p role="alert" className="text-sm text-danger-700">
                {modelsMessages.loadFailed}
                <Button
                  variant="ghost"
                  size="sm"
                  className="ml-2"
                  onClick={() => void models.refetch()}
                >
                  {commonMessages.tryAgain}
                </Button>
              </p>
            ) : list.length === 0 ? (
              <NoModelsPrompt
                title={text.noModels}
                text={text.noModelsHint}
                linkLabel={text.createModel}
                returnTo={pathname + search}
              />
            ) : (
              <MultiModelPicker
                models={list}
                legend={text.chooseModel}
                selected={selected}
                locked={!unlocked}
                disabled={submit.isPending}
                onChange={(id, on) => {
                  const next = new Set(selected);
                  if (on) next.add(id);
                  else next.delete(id);
                  setChoice(next);
                }}
                onSelectAll={() => setChoice(toggleSelectAll(list, selected))}
              />
            )}

            <div className="flex flex-col gap-2">
              <Label htmlFor={promptId}>{text.promptLabel}</Label>
              <Textarea
                id={promptId}
                value={prompt}
                onChange={(event) => setPrompt(event.target.value)}
                placeholder={text.promptPlaceholder}
                disabled={promptDisabled}
                maxLength={promptRules.maxLength}
                aria-describedby={describedBy(fieldHintId(promptId), countId)}
                style={{ minHeight: promptRules.minHeightPx }}
              />
              <div className="flex items-center justify-between gap-3 text-xs text-neutral-600">
                <p id={fieldHintId(promptId)} className="flex items-center gap-1.5">
                  <Coins aria-hidden="true" className="size-3.5 text-accent-600" />
                  {selected.size > 1
                    ? bulkMessages.cost(selected.size)
                    : catalogMessages.generateCost}
                </p>
                <p id={countId} className="shrink-0 tabular-nums">
                  {text.promptCount(prompt.length, promptRules.maxLength)}
                </p>
              </div>
            </div>

            {/* On a phone Generate stays at the bottom of the screen while this card is in view,
                however many models the picker lists above the prompt. */}
            <StickyActionBar data-testid="custom-generate-bar">
              <Button
                size="lg"
                className="w-full"
                loading={button.kind === 'generating'}
                onClick={onGenerate}
                data-state={button.kind}
              >
                {button.kind === 'upgrade' ? (
                  <Lock aria-hidden="true" className="size-4" />
                ) : button.kind === 'needCredits' ? (
                  <Coins aria-hidden="true" className="size-4" />
                ) : button.kind === 'generating' ? null : (
                  <Sparkles aria-hidden="true" className="size-4" />
                )}
                {button.label}
              </Button>
            </StickyActionBar>
          </Card>
          {latest ? <GenerationResult key={latest.id} generation={latest} /> : null}
        </div>

        <Card className="flex h-fit flex-col gap-3 p-5 md:p-6" data-testid="prompt-tips">
          <TipsHeading className="flex items-center gap-2 text-base font-semibold text-neutral-950">
            <Lightbulb aria-hidden="true" className="size-4 text-accent-600" />
            {text.tipsTitle}
          </TipsHeading>
          <ul className="flex list-disc flex-col gap-2 pl-5 text-sm text-neutral-700 marker:text-accent-400">
            {text.tips.map((tip) => (
              <li key={tip}>{tip}</li>
            ))}
          </ul>
        </Card>
      </div>
    </section>
  );
}
