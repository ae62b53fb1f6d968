import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { ArrowRight, Coins, ScanFace, Sparkles, Upload } from 'lucide-react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { pageTitleMessages } from '../../../../common/messages/shell.ts';
import { createModelMessages, nameModelMessages } from '../../../../common/messages/studio.ts';
import { routes } from '../../../../common/product/routes.ts';
import { ButtonLink } from '../../../components/button-link.tsx';
import { AlertDialogAction } from '../../../components/ui/alert-dialog.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Card } from '../../../components/ui/card.tsx';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog.tsx';
import { FormAlert } from '../../../components/ui/form-alert.tsx';
import { usePageTitle } from '../../../lib/use-page-title.ts';
import { useSession } from '../../../lib/session.ts';
import { FlowPage } from '../components/flow-page.tsx';
import {
  countModelsTowardLimit,
  createModelDecision,
  creditsDialogAction,
  readRedirect,
  trainingPayment,
} from '../create-model-rules.ts';
import { modelsQueryOptions } from '../studio-api.ts';

const text = createModelMessages;
const stepIcons = [Upload, ScanFace, Sparkles] as const;

/**
 * /create-model?redirect=: how model creation works in three steps, then Continue as spec §4
 * says: no active plan → the plans (coming back to `redirect`); no free training left → a
 * confirmation that 50 credits will be used (or Buy Credits when there are fewer); else on to
 * the example photos. A plan whose models are used up says so here rather than after uploads.
 */
export function CreateModelPage() {
  usePageTitle(pageTitleMessages.createModel);
  const [searchParams] = useSearchParams();
  const navigate = useNavigate();
  const { subscription } = useSession();
  const redirect = readRedirect(searchParams.get('redirect'));
  const models = useQuery(modelsQueryOptions());
  const [dialogOpen, setDialogOpen] = useState(false);

  const modelCount = models.data ? countModelsTowardLimit(models.data.models) : null;
  const decision = createModelDecision({ subscription, modelCount, redirect });
  // Only a subscriber's limit depends on the models list: wait for it before offering Continue.
  const checkingLimit = models.isPending && decision.kind !== 'subscribe';

  const onContinue = () => {
    switch (decision.kind) {
      case 'subscribe':
      case 'proceed':
        void navigate(decision.to);
        return;
      case 'confirmCredits':
        setDialogOpen(true);
        return;
      default:
        return;
    }
  };

  const credits = subscription?.credits ?? 0;
  const dialogAction = creditsDialogAction(credits);
  const payment = trainingPayment(subscription);

  return (
    <FlowPage title={pageTitleMessages.createModel} description={text.subtitle}>
      <section aria-labelledby="how-title" className="flex flex-col gap-5">
        <h2 id="how-title" className="text-xl font-semibold text-neutral-950">
          {text.title}
        </h2>
        <ol className="grid gap-4 md:grid-cols-3">
          {text.steps.map((step, index) => {
            const Icon = stepIcons[index] ?? Sparkles;
            return (
              <li key={step}>
                <Card className="flex h-full flex-col gap-3 p-5 md:p-6">
                  <span className="flex size-11 items-center justify-center rounded-full bg-accent-50 text-accent-700">
                    <Icon aria-hidden="true" className="size-5" />
                  </span>
                  <p className="text-sm font-medium text-accent-700">{text.stepLabel(index + 1)}</p>
                  <p className="text-base leading-relaxed text-neutral-800">{step}</p>
                </Card>
              </li>
            );
          })}
        </ol>
      </section>

      <div className="flex flex-col gap-4">
        {decision.kind === 'limitReached' ? (
          <FormAlert>
            <p>{decision.message}</p>
            <div className="mt-3 flex flex-wrap gap-2">
              <Button asChild size="sm" variant="outline">
                <Link to={routes.myModels}>{text.viewModels}</Link>
              </Button>
              {decision.canUpgrade ? (
                <Button asChild size="sm" variant="ghost">
                  <Link to={`${routes.subscription}?redirect=${encodeURIComponent(redirect)}`}>
                    {text.upgradePlan}
                  </Link>
                </Button>
              ) : null}
            </div>
          </FormAlert>
        ) : null}

        {decision.kind === 'insufficientCredits' ? (
          <FormAlert>
            <p>{decision.message}</p>
            <ButtonLink to={decision.to} icon={Coins} size="sm" className="mt-3">
              {text.buyCredits}
            </ButtonLink>
          </FormAlert>
        ) : null}

        {decision.kind === 'subscribe' ? (
          <p className="text-sm leading-relaxed text-neutral-600">{text.subscriptionRequired}</p>
        ) : decision.kind === 'proceed' || decision.kind === 'confirmCredits' ? (
          <p className="text-sm leading-relaxed text-neutral-600">
            {payment === 'free-training'
              ? nameModelMessages.freeTrainingNote
              : nameModelMessages.creditsNote}
          </p>
        ) : null}

        {decision.kind !== 'limitReached' ? (
          <Button
            size="lg"
            className="self-start"
            loading={checkingLimit}
            disabled={decision.kind === 'insufficientCredits'}
            onClick={onContinue}
          >
            {text.continue}
            <ArrowRight aria-hidden="true" className="size-4" />
          </Button>
        ) : null}
        {checkingLimit ? (
          <p role="status" className="sr-only">
            {text.checkingModels}
          </p>
        ) : null}
      </div>

      <ConfirmDialog
        open={dialogOpen}
        onOpenChange={setDialogOpen}
        title={
          dialogAction.to === routes.buyCredits
            ? text.insufficientCreditsTitle
            : text.useCreditsTitle
        }
        description={
          dialogAction.to === routes.buyCredits
            ? text.insufficientCreditsDescription(credits)
            : text.useCreditsDescription(credits)
        }
        cancelLabel={text.cancel}
        action={
          <AlertDialogAction onClick={() => void navigate(dialogAction.to)}>
            {dialogAction.label}
          </AlertDialogAction>
        }
      />
    </FlowPage>
  );
}
