import type { ReactNode } from 'react';
import { ArrowRight } from 'lucide-react';
import { landingMessages } from '../../../../common/messages/landing.ts';
import { routes } from '../../../../common/product/routes.ts';
import { PageLink } from '../../../components/page-link.tsx';
import { Button, type ButtonProps } from '../../../components/ui/button.tsx';
import { cn } from '../../../lib/cn.ts';
import { useSessionStatus } from '../../../lib/session-status.ts';

export interface SessionCtaProps {
  /** What a signed-out visitor reads; signed-in people always read "Go to Dashboard". */
  signedOutLabel?: ReactNode;
  variant?: ButtonProps['variant'];
  size?: ButtonProps['size'];
  className?: string;
  arrow?: boolean;
}

/**
 * The landing's calls to action: the dashboard for people signed in, sign-up for the others.
 * Until the session is known the button keeps its room but stays hidden, so nobody sees the
 * wrong one flash and nothing moves when it appears.
 */
export function SessionCta({
  signedOutLabel = landingMessages.pricing.getStarted,
  variant,
  size = 'lg',
  className,
  arrow = false,
}: SessionCtaProps) {
  const status = useSessionStatus();
  const signedIn = status === 'signed-in';
  const known = status !== 'loading';
  return (
    <Button
      asChild
      variant={variant}
      size={size}
      className={cn(!known && 'invisible', className)}
      aria-hidden={known ? undefined : true}
    >
      <PageLink to={signedIn ? routes.dashboard : routes.signup} tabIndex={known ? undefined : -1}>
        {signedIn ? landingMessages.pricing.goToDashboard : signedOutLabel}
        {arrow ? <ArrowRight aria-hidden="true" className="size-4" /> : null}
      </PageLink>
    </Button>
  );
}
