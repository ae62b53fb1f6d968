import { ArrowLeft, ArrowRight, LogOut, Sparkles } from 'lucide-react';
import { Link } from 'react-router';
import { accountMessages } from '../../../../common/messages/account.ts';
import { pageTitleMessages } from '../../../../common/messages/shell.ts';
import { routes } from '../../../../common/product/routes.ts';
import { ButtonLink } from '../../../components/button-link.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Container } from '../../../components/ui/container.tsx';
import { PageHeader } from '../../../components/ui/page-header.tsx';
import { usePageTitle } from '../../../lib/use-page-title.ts';
import { useSession } from '../../../lib/session.ts';
import { useSignOut } from '../../../lib/sign-out.ts';
import { CreditHistory } from '../../billing/components/credit-history.tsx';
import { PlanGrid } from '../../billing/components/plan-grid.tsx';
import { SubscriptionStatusCard } from '../../billing/components/subscription-status-card.tsx';
import { TrainingPhotosSetting } from '../../studio/components/training-photos-setting.tsx';
import { AccountDetailsCard } from '../components/account-details-card.tsx';
import { DeleteAccountSection } from '../components/delete-account-section.tsx';

const text = accountMessages;

/**
 * /account: a stack of independent sections: details, the subscription (with the plans when
 * there is none), the credit history, and deletion last, as the most consequential.
 */
export function AccountPage() {
  usePageTitle(pageTitleMessages.account);
  // Inside RequireAuth, so the session is there.
  const { user, subscription } = useSession();
  const { signOut, isSigningOut } = useSignOut();
  const active = subscription?.active === true;

  return (
    <Container size="md" className="flex flex-col gap-8 py-10 md:gap-10 md:py-14">
      <PageHeader
        title={text.title}
        description={text.subtitle}
        actions={
          <>
            <ButtonLink to={routes.dashboard} icon={ArrowLeft} variant="outline">
              {text.backToDashboard}
            </ButtonLink>
            <Button variant="ghost" loading={isSigningOut} onClick={() => void signOut()}>
              {isSigningOut ? null : <LogOut aria-hidden="true" className="size-4" />}
              {text.logout}
            </Button>
          </>
        }
      />
      {user ? <AccountDetailsCard user={user} /> : null}
      <SubscriptionStatusCard subscription={subscription} />
      {active ? null : (
        <section aria-labelledby="account-plans-title" className="flex flex-col gap-5">
          <div className="flex flex-col gap-1.5">
            <h2 id="account-plans-title" className="text-xl font-semibold text-neutral-950">
              {text.choosePlan}
            </h2>
            <p className="text-sm text-neutral-600">{text.choosePlanDescription}</p>
          </div>
          <PlanGrid subscription={subscription} headingLevel="h3" />
        </section>
      )}
      <Link
        to={routes.myModels}
        className="group flex items-center gap-4 rounded-card border border-neutral-200/80 bg-white p-5 shadow-card transition-shadow hover:shadow-lifted md:px-8"
      >
        <span className="flex size-10 items-center justify-center rounded-full bg-accent-50 text-accent-700">
          <Sparkles aria-hidden="true" className="size-5" />
        </span>
        <span className="flex-1 font-semibold text-neutral-950">{text.myModels}</span>
        <ArrowRight
          aria-hidden="true"
          className="size-4 text-neutral-400 transition-transform group-hover:translate-x-0.5 group-hover:text-neutral-700 motion-reduce:transition-none"
        />
      </Link>
      <TrainingPhotosSetting />
      <CreditHistory />
      <DeleteAccountSection />
    </Container>
  );
}
