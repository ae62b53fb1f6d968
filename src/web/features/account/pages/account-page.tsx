import { ArrowLeft, LogOut } from 'lucide-react';
import { Link } from 'react-router';
import { messages } from '../../../../common/messages.ts';
import { routes } from '../../../../common/product.ts';
import { Button } from '../../../components/ui/button.tsx';
import { Container } from '../../../components/ui/container.tsx';
import { PageHeader } from '../../../components/ui/page-header.tsx';
import { usePageTitle } from '../../../lib/use-page-title.ts';
import { useSession, useSignOut } from '../../auth/session.ts';
import { AccountDetailsCard } from '../components/account-details-card.tsx';
import { DeleteAccountSection } from '../components/delete-account-section.tsx';

const text = messages.account;

/**
 * /account: a stack of independent sections (details, then deletion last, as the most
 * consequential). Billing's subscription card joins the stack between them.
 */
export function AccountPage() {
  usePageTitle(messages.pageTitles.account);
  // Inside RequireAuth, so the session is there.
  const { user } = useSession();
  const { signOut, isSigningOut } = useSignOut();

  return (
    <Container size="md" className="flex flex-col gap-8 py-10 md:gap-10 md:py-14">
      <PageHeader
        title={text.title}
        description={text.subtitle}
        actions={
          <>
            <Button asChild variant="outline">
              <Link to={routes.dashboard}>
                <ArrowLeft aria-hidden="true" className="size-4" />
                {text.backToDashboard}
              </Link>
            </Button>
            <Button variant="ghost" loading={isSigningOut} onClick={() => void signOut()}>
              {isSigningOut ? null : <LogOut aria-hidden="true" className="size-4" />}
              {text.logout}
            </Button>
          </>
        }
      />
      {user ? <AccountDetailsCard user={user} /> : null}
      <DeleteAccountSection />
    </Container>
  );
}
