import { useEffect, useState } from 'react';
import { Info, X } from 'lucide-react';
import { useSearchParams } from 'react-router';
import { billingMessages } from '../../../../common/messages/billing.ts';
import { commonMessages } from '../../../../common/messages/shell.ts';
import { checkoutCancelled } from '../../../../common/product/routes.ts';
import { Button } from '../../../components/ui/button.tsx';

/**
 * Where a checkout's Cancel lands (`?checkout=cancelled`, added by the server): says the checkout
 * was left and nothing was charged, until dismissed. The mark leaves the address at once, so a
 * reload or a shared link does not say it again.
 */
export function CheckoutCancelledNotice() {
  const [searchParams, setSearchParams] = useSearchParams();
  const marked = searchParams.get(checkoutCancelled.param) === checkoutCancelled.value;
  const [shown, setShown] = useState(marked);

  useEffect(() => {
    if (!marked) return;
    setShown(true);
    setSearchParams(
      (current) => {
        const next = new URLSearchParams(current);
        next.delete(checkoutCancelled.param);
        return next;
      },
      { replace: true, preventScrollReset: true },
    );
  }, [marked, setSearchParams]);

  if (!shown) return null;
  return (
    <div
      role="status"
      data-testid="checkout-cancelled"
      className="flex items-start gap-3 rounded-control border border-neutral-200 bg-neutral-50 px-4 py-3 text-sm leading-relaxed text-neutral-800"
    >
      <Info aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-accent-700" />
      <p className="min-w-0 flex-1 font-medium">{billingMessages.checkoutCancelled}</p>
      <Button
        variant="ghost"
        size="sm"
        className="-my-1 -mr-2 size-8 p-0"
        aria-label={commonMessages.close}
        onClick={() => setShown(false)}
      >
        <X aria-hidden="true" className="size-4" />
      </Button>
    </div>
  );
}
