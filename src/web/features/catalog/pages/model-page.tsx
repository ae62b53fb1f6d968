import { useState, type ReactNode } from 'react';
import { useMutation, useQuery } from '@tanstack/react-query';
import {
  ArrowLeft,
  Coins,
  CreditCard,
  Lock,
  LogIn,
  Plus,
  Sparkles,
  UserRoundPlus,
} from 'lucide-react';
import { Link, useLocation, useNavigate, useParams } from 'react-router';
import type { CatalogImage } from '../../../../common/api/catalog.ts';
import { messages } from '../../../../common/messages.ts';
import { paths, routes } from '../../../../common/product.ts';
import { Badge } from '../../../components/ui/badge.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Card } from '../../../components/ui/card.tsx';
import { Container } from '../../../components/ui/container.tsx';
import { EmptyState } from '../../../components/ui/empty-state.tsx';
import { Skeleton } from '../../../components/ui/skeleton.tsx';
import { StickyActionBar } from '../../../components/ui/sticky-action-bar.tsx';
import { notify } from '../../../components/ui/toast.ts';
import { isApiError } from '../../../lib/api-client.ts';
import { usePageTitle } from '../../../lib/use-page-title.ts';
import { rememberPostLoginRedirect } from '../../../lib/post-login-redirect.ts';
import { useSession } from '../../../lib/session.ts';
import { GenerationResult } from '../../generation/components/generation-result.tsx';
import { SingleModelPicker } from '../../generation/components/model-picker.tsx';
import {
  generateFromPreset,
  requestFailure,
  type Generation,
} from '../../generation/generation-api.ts';
import {
  defaultModelId,
  generatedTabPath,
  isUsableModel,
} from '../../generation/generation-rules.ts';
import { modelsQueryOptions } from '../../studio/studio-api.ts';
import { presetQueryOptions, readCatalogLinkState } from '../catalog-api.ts';
import { ExamplesGrid, ImageCarousel } from '../components/image-carousel.tsx';
import { presetGenerateState, type PresetGenerateState } from '../preset-generate-state.ts';

const text = messages.catalog;
const buttonText = messages.generation.presetButton;

/**
 * /model/{id}: a preset's pictures, description and category, the user's own AI model to use,
 * and the Generate button in the state the session calls for. Back returns to the category the
 * preset was opened from (router state), else to the dashboard.
 */
export function ModelPage() {
  const { id = '' } = useParams();
  const location = useLocation();
  const { fromCategory } = readCatalogLinkState(location.state);
  const backTo = fromCategory ? paths.category(fromCategory) : routes.dashboard;
  const query = useQuery(presetQueryOptions(id));
  const [index, setIndex] = useState(0);
  usePageTitle(query.data?.preset.displayName ?? messages.pageTitles.model);

  const back = (
    <Button asChild variant="ghost" size="sm" className="-ml-3 self-start">
      <Link to={backTo}>
        <ArrowLeft aria-hidden="true" className="size-4" />
        {messages.common.back}
      </Link>
    </Button>
  );

  if (query.isPending) return <ModelPageSkeleton back={back} />;

  if (query.isError) {
    const notFound = isApiError(query.error) && query.error.status === 404;
    return (
      <Container className="flex flex-col gap-6 py-8 md:py-12">
        {back}
        <NotFoundOrFailed
          notFound={notFound}
          backTo={backTo}
          onRetry={() => void query.refetch()}
        />
      </Container>
    );
  }

  const { preset } = query.data;
  const images: CatalogImage[] = [
    ...(preset.featuredImage ? [preset.featuredImage] : []),
    ...preset.additionalImages,
  ];

  return (
    <Container className="flex flex-col gap-8 py-8 md:gap-12 md:py-12">
      <div className="grid gap-8 md:grid-cols-2 md:gap-12">
        <div className="flex flex-col gap-4">
          {back}
          {/* Without any picture the carousel shows the calm "Image not available" box. */}
          <ImageCarousel
            images={images}
            index={index}
            onIndexChange={setIndex}
            fallbackAlt={preset.displayName}
          />
        </div>

        <div className="flex flex-col gap-6 md:pt-14">
          <div className="flex flex-col gap-3">
            <Link
              to={paths.category(preset.category.manualId)}
              state={{ categoryName: preset.category.displayName }}
              className="self-start rounded-full"
            >
              <Badge variant="accent" size="md" data-testid="category-badge">
                {preset.category.emoji ? (
                  <span aria-hidden="true">{preset.category.emoji}</span>
                ) : null}
                {preset.category.displayName}
              </Badge>
            </Link>
            <h1 className="text-3xl font-semibold text-neutral-950 md:text-4xl">
              {preset.displayName}
            </h1>
            <p className="text-base leading-relaxed text-neutral-600">
              {preset.description || text.noDescription}
            </p>
          </div>

          <PresetGenerate presetId={preset.id} />
        </div>
      </div>

      {images.length > 0 ? (
        <section aria-labelledby="examples-title" className="flex flex-col gap-4">
          <h2 id="examples-title" className="text-xl font-semibold text-neutral-950">
            {text.examples}
          </h2>
          <ExamplesGrid
            images={images}
            index={index}
            onIndexChange={setIndex}
            fallbackAlt={preset.displayName}
          />
        </section>
      ) : null}
    </Container>
  );
}

/**
 * The user's own AI model to generate with (complete ones can be chosen, a training one is
 * greyed) and the Generate button in the state the session calls for. Generate spends one credit
 * and queues the image, which then shows here, live, from progress to picture (the latest one;
 * the toast and the result lead to all the others). On a phone the button stays at the bottom of
 * the screen while this column is in view, so it is never below the fold.
 */
function PresetGenerate({ presetId }: { presetId: string }) {
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
      notify.success(messages.generation.queued, {
        action: {
          label: messages.generation.viewImages,
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
      notify.error(messages.generation.missingInformation);
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
      <div className="flex items-start gap-4">
        <span className="flex size-11 shrink-0 items-center justify-center rounded-full bg-accent-50 text-accent-700">
          <UserRoundPlus aria-hidden="true" className="size-5" />
        </span>
        <div className="flex flex-col gap-1">
          <p className="font-semibold text-neutral-950">{text.modelPickerEmptyTitle}</p>
          <p className="text-sm leading-relaxed text-neutral-600">{text.modelPickerEmptyText}</p>
          <Button asChild size="sm" variant="outline" className="mt-2 self-start">
            <Link to={`${routes.createModel}?redirect=${encodeURIComponent(pathname)}`}>
              <Plus aria-hidden="true" className="size-4" />
              {messages.models.createNew}
            </Link>
          </Button>
        </div>
      </div>
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

function NotFoundOrFailed({
  notFound,
  backTo,
  onRetry,
}: {
  notFound: boolean;
  backTo: string;
  onRetry: () => void;
}) {
  if (notFound) {
    return (
      <EmptyState
        title={<span role="alert">{text.modelNotFound}</span>}
        headingLevel="h2"
        action={
          <Button asChild variant="outline">
            <Link to={backTo}>{messages.common.goBack}</Link>
          </Button>
        }
      />
    );
  }
  return (
    <EmptyState
      title={<span role="alert">{text.loadModelDetailsFailed}</span>}
      description={messages.common.somethingWentWrong}
      action={
        <>
          <Button variant="outline" onClick={onRetry}>
            {messages.common.tryAgain}
          </Button>
          <Button asChild variant="ghost">
            <Link to={backTo}>{messages.common.goBack}</Link>
          </Button>
        </>
      }
    />
  );
}

function ModelPageSkeleton({ back }: { back: ReactNode }) {
  return (
    <Container aria-busy="true" className="flex flex-col gap-8 py-8 md:gap-12 md:py-12">
      <span role="status" className="sr-only">
        {messages.common.loadingEllipsis}
      </span>
      <div className="grid gap-8 md:grid-cols-2 md:gap-12">
        <div className="flex flex-col gap-4">
          {back}
          <Skeleton shape="card" className="aspect-[4/5] w-full" />
        </div>
        <div className="flex flex-col gap-6 md:pt-14">
          <Skeleton shape="pill" className="h-8 w-32" />
          <Skeleton className="h-10 w-3/4" />
          <Skeleton className="h-16 w-full" />
          <Skeleton shape="card" className="h-32 w-full" />
          <Skeleton shape="pill" className="h-12 w-full" />
        </div>
      </div>
    </Container>
  );
}
