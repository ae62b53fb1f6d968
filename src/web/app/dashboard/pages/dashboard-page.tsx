import { useEffect } from 'react';
import { useInfiniteQuery, useQuery, useQueryClient } from '@tanstack/react-query';
import { LayoutGrid, Lock, Shirt, Sparkles } from 'lucide-react';
import { useSearchParams } from 'react-router';
import { billingMessages } from '../../../../common/messages/billing.ts';
import { catalogMessages } from '../../../../common/messages/catalog.ts';
import { dashboardMessages } from '../../../../common/messages/dashboard.ts';
import { pageTitleMessages } from '../../../../common/messages/shell.ts';
import { timings } from '../../../../common/product/timings.ts';
import { Button } from '../../../components/ui/button.tsx';
import { Card } from '../../../components/ui/card.tsx';
import { Container } from '../../../components/ui/container.tsx';
import { PageHeader } from '../../../components/ui/page-header.tsx';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../../../components/ui/tabs.tsx';
import { notify } from '../../../components/ui/toast.ts';
import { usePageTitle } from '../../../lib/use-page-title.ts';
import { useSession } from '../../../lib/session.ts';
import {
  applySubscription,
  checkSubscription,
  rereadSubscription,
} from '../../../features/billing/billing-api.ts';
import { CategoryList } from '../../../features/catalog/components/category-list.tsx';
import { CustomGenerationPanel } from '../../../features/generation/components/custom-generation-panel.tsx';
import { GeneratedTab } from '../../../features/generation/components/generated-tab.tsx';
import { generationsQueryOptions } from '../../../features/generation/generation-api.ts';
import { TrainingPreviews } from '../../../features/studio/components/training-previews.tsx';
import { trainingBannerState } from '../../../features/studio/model-status.ts';
import { modelsQueryOptions } from '../../../features/studio/studio-api.ts';
import { dashboardPreviews } from '../../../features/studio/training-previews-rules.ts';
import { TryOnTab } from '../../../features/tryon/components/tryon-tab.tsx';
import { isTryOnLocked } from '../../../features/tryon/tryon-rules.ts';
import { PlanSummary } from '../components/plan-summary.tsx';
import { TrainingBanner } from '../components/training-banner.tsx';
import { dashboardNextStep } from '../next-step.ts';
import {
  readStudioQuery,
  writeStudioQuery,
  type StudioMain,
  type StudioSub,
} from '../studio-query.ts';

const text = dashboardMessages;

/**
 * /dashboard, the AI Studio: plan and balance, the training banner, and the studio's tabs
 * (Generate: Presets / Custom / Generated; and Try-On), kept in the query string so every tab has
 * an address.
 */
export function DashboardPage() {
  usePageTitle(pageTitleMessages.dashboard);
  // Inside RequireAuth, so the session is there.
  const { user, profile, subscription } = useSession();
  usePaymentReturnRefresh();
  const [searchParams, setSearchParams] = useSearchParams();
  const studio = readStudioQuery(searchParams);
  const models = useStudioModels(profile?.trainingInProgress === true);
  const training = trainingBannerState(models.data, profile?.trainingInProgress === true);
  const previews = useDashboardPreviews(models.data?.models);
  const nextStep = dashboardNextStep({ subscription, models: models.data?.models ?? null });
  const tryOnLocked = isTryOnLocked(subscription);

  const go = (next: Partial<{ main: StudioMain; sub: StudioSub }>) =>
    setSearchParams((current) => writeStudioQuery(current, { ...studio, ...next }), {
      replace: true,
      preventScrollReset: true,
    });

  const showPresets = () => go({ main: 'generation', sub: 'presets' });
  const browsePresets = (
    <Button variant="outline" onClick={showPresets}>
      <LayoutGrid aria-hidden="true" className="size-4" />
      {text.browsePresets}
    </Button>
  );

  return (
    // Tighter on a phone, so the studio's tabs and their first row start on the first screen.
    <Container className="flex flex-col gap-5 py-5 md:gap-8 md:py-10">
      <PageHeader
        eyebrow={text.studioTitle}
        title={user?.name ? text.greeting(user.name) : text.greetingNoName}
        description={<span className="hidden md:inline">{text.studioSubtitle}</span>}
      />

      <TrainingBanner {...training}>
        {previews?.training ? (
          <TrainingPreviews previews={previews.model.previews} training />
        ) : null}
      </TrainingBanner>
      {previews && !previews.training ? (
        // On a phone the card goes below the studio, whose tabs must start on the first screen.
        <Card className="order-last p-5 md:order-none md:p-6">
          <TrainingPreviews previews={previews.model.previews} training={false} />
        </Card>
      ) : null}
      <PlanSummary subscription={subscription} nextStep={nextStep} />

      <Tabs value={studio.main} onValueChange={(value) => go({ main: value as StudioMain })}>
        <TabsList aria-label={text.studioSections}>
          <TabsTrigger value="generation">
            <Sparkles aria-hidden="true" />
            {text.tabs.generation}
          </TabsTrigger>
          <TabsTrigger value="tryon">
            {tryOnLocked ? <Lock aria-hidden="true" /> : <Shirt aria-hidden="true" />}
            {text.tabs.tryon}
            {tryOnLocked ? <span className="sr-only">{text.tryOnLocked}</span> : null}
          </TabsTrigger>
        </TabsList>

        <TabsContent value="generation" className="mt-3 md:mt-6">
          <Tabs value={studio.sub} onValueChange={(value) => go({ sub: value as StudioSub })}>
            <TabsList
              aria-label={text.generationTabs}
              className="rounded-none bg-transparent p-0 gap-6 border-b border-neutral-200 w-full justify-start"
            >
              {(['presets', 'custom', 'generated'] as const).map((sub) => (
                <TabsTrigger
                  key={sub}
                  value={sub}
                  className="-mb-px h-11 rounded-none border-b-2 border-transparent px-1 data-[state=active]:border-accent-600 data-[state=active]:bg-transparent data-[state=active]:shadow-none"
                >
                  {text.tabs[sub]}
                </TabsTrigger>
              ))}
            </TabsList>

            <TabsContent value="presets" className="mt-5 md:mt-8">
              <h2 className="sr-only">{catalogMessages.presetsTitle}</h2>
              <CategoryList />
            </TabsContent>
            <TabsContent value="custom" className="mt-5 md:mt-8">
              <CustomGenerationPanel />
            </TabsContent>
            <TabsContent value="generated" className="mt-5 md:mt-8">
              <GeneratedTab emptyAction={browsePresets} />
            </TabsContent>
          </Tabs>
        </TabsContent>

        <TabsContent value="tryon" className="mt-5 md:mt-8">
          <TryOnTab />
        </TabsContent>
      </Tabs>
    </Container>
  );
}

/**
 * ?payment=success (a payment provider's return to the dashboard): the plan may land a moment
 * after the browser does, so the subscription is refreshed after the specification's 2 s and the
 * parameter is removed (a reload should not refresh again). A failed refresh is the
 * specification's toast.
 */
function usePaymentReturnRefresh() {
  const [searchParams, setSearchParams] = useSearchParams();
  const queryClient = useQueryClient();
  const paymentReturn = searchParams.get('payment') === 'success';

  useEffect(() => {
    if (!paymentReturn) return;
    const timer = setTimeout(() => {
      checkSubscription()
        .then((subscription) => applySubscription(queryClient, subscription))
        .catch((error: unknown) => {
          console.warn('Subscription check failed', error);
          notify.error(billingMessages.checkSubscriptionFailed);
          void rereadSubscription(queryClient);
        });
      setSearchParams(
        (current) => {
          const next = new URLSearchParams(current);
          next.delete('payment');
          return next;
        },
        { replace: true },
      );
    }, timings.dashboardPaymentRefreshMs);
    return () => clearTimeout(timer);
  }, [paymentReturn, queryClient, setSearchParams]);
}

/**
 * The newest model's training previews, while it trains and, once trained, until the user has
 * pictures of their own (the first page of their generations, read whenever the newest model has
 * previews). Read during the training too, so the previews stay on screen when it ends: read only
 * then, they vanished until the answer came and came back in another place.
 */
function useDashboardPreviews(models: Parameters<typeof dashboardPreviews>[0]) {
  const newest = models?.[0];
  const own = useInfiniteQuery({
    ...generationsQueryOptions('all'),
    enabled: (newest?.previews.length ?? 0) > 0,
  });
  const hasOwnPictures = own.data
    ? own.data.pages.some((page) => page.generations.length > 0)
    : undefined;
  return dashboardPreviews(models, hasOwnPictures);
}

/**
 * The user's models, for the training banner and the plan card's next step: events keep the list
 * current; a slow poll while a model trains covers a missed event (the profile's flag says so
 * until the list arrives).
 */
function useStudioModels(profileTrainingInProgress: boolean) {
  return useQuery({
    ...modelsQueryOptions(),
    refetchInterval: (query) =>
      (query.state.data?.trainingInProgress ?? profileTrainingInProgress) ? 15_000 : false,
  });
}
