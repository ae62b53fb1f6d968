import { useState } from 'react';
import { useMutation, useQuery } from '@tanstack/react-query';
import { Coins, CreditCard, Lock, LogIn, Sparkles } from 'lucide-react';
import { useLocation, useNavigate } from 'react-router';
import { catalogMessages } from '../../../../common/messages/catalog.ts';
import { generationMessages } from '../../../../common/messages/generation.ts';
import { modelsMessages } from '../../../../common/messages/models.ts';
import { Button } from '../../../components/ui/button.tsx';
import { Card } from '../../../components/ui/card.tsx';
import { StickyActionBar } from '../../../components/ui/sticky-action-bar.tsx';
import { notify } from '../../../components/ui/toast.ts';
import { rememberPostLoginRedirect } from '../../../lib/post-login-redirect.ts';
import { useSession } from '../../../lib/session.ts';
import { modelsQueryOptions } from '../../studio/studio-api.ts';
import { generateFromPreset, requestFailure, type Generation } from '../generation-api.ts';
import { defaultModelId, generatedTabPath, isUsableModel } from '../generation-rules.ts';
import { presetGenerateState, type PresetGenerateState } from '../preset-generate-state.ts';
import { GenerationResult } from './generation-result.tsx';
import { SingleModelPicker } from './model-picker.tsx';
import { NoModelsPrompt } from './no-models-prompt.tsx';

const text = catalogMessages;
const buttonText = generationMessages.presetButton;

/**
 * The preset page's generate column (catalog's /model/{id}): the user's own AI model to generate
 * with (complete ones can be chosen, a training one is greyed) and the Generate button in the
 * state the session calls for. Generate spends one credit and queues the image, which then shows
 * here, live, from progress to picture (the latest one; the toast and the result lead to all the
 * others). On a phone the button stays at the bottom of the screen while this column is in view,
 * so it is never below the fold.
 */
export function PresetGenerate({ presetId }: { presetId: string }) {
  const session = useSession();
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const signedIn = session.status === 'signed-in';
  const models = useQuery({ ...modelsQueryOptions(), enabled: signedIn });
  const [chosen, setChosen] = useState<string | null>(null);
  const [latest, setLatest] = useState<Generation | null>(null);

  const list = models.data?.models ?? [];
  const usable = list.filter(isUsableModel);
  const userModelId =
    chosen && usable.some((model) => model.id === chosen)
      ? chosen
      : defaultModelId(list, models.data?.selectedModelId);
  const modelsLoading = signedIn && models.isPending;

  const generate = useMutation({
    mutationFn: (request: { userModelId: string; presetId: string }) => generateFromPreset(request),
    onSuccess: (generation) => {
      setLatest(generation);
      notify.success(generationMessages.queued, {
        action: {
          label: generationMessages.viewImages,
          onClick: () => void navigate(generatedTabPath),
        },
      });
    },
    onError: (error) => {
      const failure = requestFailure(error, 'preset');
      notify.error(failure.message);
      if (failure.redirectTo) void navigate(failure.redirectTo);
    },
  });

  const state = presetGenerateState({
    sessionStatus: modelsLoading ? 'loading' : session.status,
    subscription: session.subscription,
    hasCompleteModel: usable.length > 0,
    returnTo: pathname,
  });

  const onGenerate = () => {
    if (!userModelId) {
      notify.error(generationMessages.missingInformation);
      return;
    }
    generate.mutate({ userModelId, presetId });
  };

  return (
    <>
      {signedIn && list.length > 0 ? (
        <Card className="flex flex-col gap-4 p-5 md:p-6">
          <SingleModelPicker
            models={list}
            legend={text.chooseYourModel}
            name="preset-user-model"
            value={userModelId}
            onChange={setChosen}
            disabled={generate.isPending}
          />
        </Card>
      ) : signedIn && !modelsLoading ? (
        <ModelPickerEmpty />
      ) : null}
      <StickyActionBar data-testid="preset-generate-bar" className="flex flex-col gap-2">
        <GenerateButton
          state={state}
          generating={generate.isPending}
          onGenerate={onGenerate}
          onNavigate={(to) => void navigate(to)}
        />
        <p className="text-center text-xs text-neutral-500">{text.generateCost}</p>
      </StickyActionBar>
      {latest ? <GenerationResult key={latest.id} generation={latest} /> : null}
    </>
  );
}

/** Nobody has a trained model yet: say what to do instead. */
function ModelPickerEmpty() {
  const { pathname } = useLocation();
  return (
    <Card className="flex flex-col gap-4 p-5 md:p-6">
      <h2 className="text-sm font-medium text-neutral-500">{text.chooseYourModel}</h2>
      <NoModelsPrompt
        title={text.modelPickerEmptyTitle}
        text={text.modelPickerEmptyText}
        linkLabel={modelsMessages.createNew}
        returnTo={pathname}
        relaxed
      />
    </Card>
  );
}

function GenerateButton({
  state,
  generating,
  onGenerate,
  onNavigate,
}: {
  state: PresetGenerateState;
  generating: boolean;
  onGenerate: () => void;
  onNavigate: (to: string) => void;
}) {
  const common = { size: 'lg' as const, className: 'w-full' };
  switch (state.kind) {
    case 'loading':
      return (
        <Button {...common} loading>
          {buttonText.loading}
        </Button>
      );
    case 'login':
      return (
        <Button
          {...common}
          onClick={() => {
            rememberPostLoginRedirect(state.returnTo);
            onNavigate(state.to);
          }}
        >
          <LogIn aria-hidden="true" className="size-4" />
          {buttonText.login}
        </Button>
      );
    case 'createModelFirst':
      return (
        <Button {...common} onClick={() => onNavigate(state.to)}>
          <Lock aria-hidden="true" className="size-4" />
          {buttonText.createModelFirst}
        </Button>
      );
    case 'getSubscription':
      return (
        <Button {...common} onClick={() => onNavigate(state.to)}>
          <CreditCard aria-hidden="true" className="size-4" />
          {buttonText.getSubscription}
        </Button>
      );
    case 'buyCredits':
      return (
        <Button {...common} onClick={() => onNavigate(state.to)}>
          <Coins aria-hidden="true" className="size-4" />
          {buttonText.buyCredits}
        </Button>
      );
    case 'generate':
      return (
        <Button {...common} loading={generating} onClick={onGenerate}>
          {generating ? null : <Sparkles aria-hidden="true" className="size-4" />}
          {buttonText.generate}
        </Button>
      );
  }
}
