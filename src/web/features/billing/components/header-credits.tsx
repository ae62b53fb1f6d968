import { Coins } from 'lucide-react';
import { Link } from 'react-router';
import { creditsMessages } from '../../../../common/messages/credits.ts';
import { routes } from '../../../../common/product/routes.ts';
import { useSession } from '../../../lib/session.ts';

/**
 * The balance in the signed-in top bar, leading to the credit packs. It reads the session, which
 * the event stream refreshes after every credit change, so it follows purchases and spending live.
 */
export function HeaderCredits() {
  const { subscription } = useSession();
  if (!subscription) return null;
  return (
    <Link
      to={routes.buyCredits}
      aria-label={creditsMessages.headerBalanceLabel(subscription.credits)}
      className="inline-flex h-9 items-center gap-1.5 rounded-full border border-neutral-200 bg-white px-3 text-sm font-medium text-neutral-800 shadow-card transition-colors hover:border-accent-300 hover:text-neutral-950"
    >
      <Coins aria-hidden="true" className="size-4 text-accent-600" />
      <span className="tabular-nums">{subscription.credits.toLocaleString('en-US')}</span>
    </Link>
  );
}
