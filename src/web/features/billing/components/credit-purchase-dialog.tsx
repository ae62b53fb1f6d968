import { CircleAlert, CircleCheck } from 'lucide-react';
import { creditsMessages } from '../../../../common/messages/credits.ts';
import { commonMessages } from '../../../../common/messages/shell.ts';
import { Button } from '../../../components/ui/button.tsx';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogTitle,
} from '../../../components/ui/dialog.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';

const text = creditsMessages;

export type CreditPurchaseState =
  | { kind: 'verifying' }
  // Whether the webhook or this page added them makes no difference to the buyer, so the
  // server's `alreadyProcessed` is not shown.
  | { kind: 'success'; credits: number; balance: number | null }
  | { kind: 'failed' };

/**
 * The credit purchase return: says the payment is being confirmed (it cannot be closed then),
 * then what came of it.
 */
export function CreditPurchaseDialog({
  state,
  onClose,
}: {
  state: CreditPurchaseState | null;
  onClose: () => void;
}) {
  const verifying = state?.kind === 'verifying';
  return (
    <Dialog open={state !== null} onOpenChange={(open) => !open && !verifying && onClose()}>
      <DialogContent
        hideCloseButton={verifying}
        closeLabel={commonMessages.close}
        onEscapeKeyDown={(event) => verifying && event.preventDefault()}
        onPointerDownOutside={(event) => verifying && event.preventDefault()}
        className="items-center text-center"
      >
        {state?.kind === 'success' ? (
          <>
            <span className="flex size-14 items-center justify-center rounded-full bg-success-50 text-success-600">
              <CircleCheck aria-hidden="true" className="size-7" />
            </span>
            <div className="flex flex-col items-center gap-2">
              <DialogTitle>{text.successTitle}</DialogTitle>
              <DialogDescription>
                {text.added(state.credits)}
                {state.balance !== null ? ` ${text.newBalance(state.balance)}` : ''}
              </DialogDescription>
            </div>
            <Button size="lg" className="w-full sm:w-auto" onClick={onClose}>
              {text.done}
            </Button>
          </>
        ) : state?.kind === 'failed' ? (
          <>
            <span className="flex size-14 items-center justify-center rounded-full bg-danger-50 text-danger-600">
              <CircleAlert aria-hidden="true" className="size-7" />
            </span>
            <div className="flex flex-col items-center gap-2">
              <DialogTitle>{text.failedTitle}</DialogTitle>
              <DialogDescription role="alert">{text.verificationFailed}</DialogDescription>
            </div>
            <Button size="lg" variant="outline" className="w-full sm:w-auto" onClick={onClose}>
              {commonMessages.close}
            </Button>
          </>
        ) : (
          <>
            <Spinner size="lg" className="text-accent-600" />
            <div className="flex flex-col items-center gap-2">
              <DialogTitle>{text.verifyingTitle}</DialogTitle>
              <DialogDescription>{text.verifyingDescription}</DialogDescription>
            </div>
          </>
        )}
      </DialogContent>
    </Dialog>
  );
}
