import type { ComponentProps, FormEvent, ReactNode } from 'react';
import { commonMessages } from '../../../common/messages/shell.ts';
import {
  AlertDialog,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
  AlertDialogTrigger,
} from './alert-dialog.tsx';

export interface ConfirmDialogProps {
  /** Controlled: the dialog shows while `open`; leave both out when a `trigger` opens it. */
  open?: boolean;
  onOpenChange?: (open: boolean) => void;
  /** The button that opens the dialog, for a dialog that is not opened from state. */
  trigger?: ReactNode;
  title: ReactNode;
  description: ReactNode;
  /** The refusal; Cancel unless the feature words it otherwise. */
  cancelLabel?: ReactNode;
  /** While the confirmed action runs: Cancel is disabled, so its outcome is seen. */
  busy?: boolean;
  /**
   * The answer that confirms: an `AlertDialogAction` closes the dialog as it is pressed; a
   * `Button` keeps it open (with its own loading state) until the caller closes it.
   */
  action: ReactNode;
  /** What the question needs besides (a field to type in, an error), between it and the answers. */
  children?: ReactNode;
  /**
   * Makes the dialog a form (Enter submits it), for a question answered by typing; the action
   * is then a submit button.
   */
  onSubmit?: (event: FormEvent<HTMLFormElement>) => void;
  /** Where focus goes on opening, when it should not start on Cancel. */
  onOpenAutoFocus?: ComponentProps<typeof AlertDialogContent>['onOpenAutoFocus'];
}

/**
 * The question before something that cannot be undone (delete a model, spend credits): a title,
 * a description, Cancel and the one action that confirms, as an alert dialog (focus starts on
 * Cancel, an outside click does not close it).
 */
export function ConfirmDialog({
  open,
  onOpenChange,
  trigger,
  title,
  description,
  cancelLabel = commonMessages.cancel,
  busy,
  action,
  children,
  onSubmit,
  onOpenAutoFocus,
}: ConfirmDialogProps) {
  const body = (
    <>
      <AlertDialogHeader>
        <AlertDialogTitle>{title}</AlertDialogTitle>
        <AlertDialogDescription>{description}</AlertDialogDescription>
      </AlertDialogHeader>
      {children}
      <AlertDialogFooter>
        <AlertDialogCancel disabled={busy}>{cancelLabel}</AlertDialogCancel>
        {action}
      </AlertDialogFooter>
    </>
  );
  return (
    <AlertDialog open={open} onOpenChange={onOpenChange}>
      {trigger === undefined ? null : <AlertDialogTrigger asChild>{trigger}</AlertDialogTrigger>}
      <AlertDialogContent onOpenAutoFocus={onOpenAutoFocus}>
        {onSubmit ? (
          <form noValidate onSubmit={onSubmit} className="flex flex-col gap-5">
            {body}
          </form>
        ) : (
          body
        )}
      </AlertDialogContent>
    </AlertDialog>
  );
}
