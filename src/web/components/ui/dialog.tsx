import type { ComponentProps, ReactNode } from 'react';
import { X } from 'lucide-react';
import { Dialog as DialogPrimitive } from 'radix-ui';
import { cn } from '../../lib/cn.ts';
import { Button } from './button.tsx';

/**
 * Modal dialog on Radix: focus is trapped and returned, Escape and the overlay close it, and the
 * title/description are wired to aria-labelledby/-describedby. Always give it a title.
 */
export const Dialog = DialogPrimitive.Root;
export const DialogTrigger = DialogPrimitive.Trigger;
export const DialogClose = DialogPrimitive.Close;

export const overlayClasses =
  'fixed inset-0 z-50 bg-neutral-950/40 backdrop-blur-[2px] data-[state=open]:animate-fade-in';

/**
 * The panel of a dialog and of an alert dialog: a bottom sheet on phones, a centred card from the
 * tablet size up, `width` wide at the most.
 */
export function dialogPanelClasses(width: 'md:max-w-md' | 'md:max-w-lg', className?: string) {
  return cn(
    'fixed inset-x-0 bottom-0 z-50 flex max-h-[90dvh] flex-col gap-5 overflow-y-auto rounded-t-card bg-white p-6 shadow-lifted',
    'md:inset-x-auto md:top-1/2 md:bottom-auto md:left-1/2 md:w-full md:-translate-x-1/2 md:-translate-y-1/2 md:rounded-card md:p-8',
    width,
    'data-[state=open]:animate-fade-in focus:outline-none',
    className,
  );
}

export const dialogTitleClasses = 'text-lg leading-snug font-semibold text-neutral-950';
export const dialogDescriptionClasses = 'text-sm leading-relaxed text-neutral-600';

export interface DialogContentProps extends Omit<
  ComponentProps<typeof DialogPrimitive.Content>,
  'title'
> {
  /**
   * The dialog's title, shown in its header (with `description` under it) and wired to
   * aria-labelledby. Leave it out only to place a `DialogTitle` yourself.
   */
  title?: ReactNode;
  description?: ReactNode;
  /** Hides the corner close button, for dialogs that must be answered with their own buttons. */
  hideCloseButton?: boolean;
  /** Label of the corner close button. */
  closeLabel?: string;
}

export function DialogContent({
  className,
  children,
  title,
  description,
  hideCloseButton = false,
  closeLabel = 'Close',
  ...props
}: DialogContentProps) {
  return (
    <DialogPrimitive.Portal>
      <DialogPrimitive.Overlay className={overlayClasses} />
      <DialogPrimitive.Content className={dialogPanelClasses('md:max-w-lg', className)} {...props}>
        {title === undefined ? null : (
          <DialogHeader>
            <DialogTitle>{title}</DialogTitle>
            {description === undefined ? null : (
              <DialogDescription>{description}</DialogDescription>
            )}
          </DialogHeader>
        )}
        {children}
        {hideCloseButton ? null : (
          <DialogPrimitive.Close
            aria-label={closeLabel}
            className="absolute top-4 right-4 inline-flex size-9 items-center justify-center rounded-full text-neutral-500 transition-colors hover:bg-neutral-100 hover:text-neutral-900"
          >
            <X aria-hidden="true" className="size-4" />
          </DialogPrimitive.Close>
        )}
      </DialogPrimitive.Content>
    </DialogPrimitive.Portal>
  );
}

export function DialogHeader({ className, ...props }: ComponentProps<'div'>) {
  return <div className={cn('flex flex-col gap-2 pr-8', className)} {...props} />;
}

export function DialogFooter({ className, ...props }: ComponentProps<'div'>) {
  return (
    <div
      className={cn(
        'flex flex-col-reverse gap-3 md:flex-row md:items-center md:justify-end',
        className,
      )}
      {...props}
    />
  );
}

export function DialogTitle({ className, ...props }: ComponentProps<typeof DialogPrimitive.Title>) {
  return <DialogPrimitive.Title className={cn(dialogTitleClasses, className)} {...props} />;
}

export function DialogDescription({
  className,
  ...props
}: ComponentProps<typeof DialogPrimitive.Description>) {
  return (
    <DialogPrimitive.Description className={cn(dialogDescriptionClasses, className)} {...props} />
  );
}

/** The footer of a dialog that only informs: one outlined button, `label`, that closes it. */
export function DialogCloseFooter({ label }: { label: ReactNode }) {
  return (
    <DialogFooter>
      <DialogClose asChild>
        <Button variant="outline">{label}</Button>
      </DialogClose>
    </DialogFooter>
  );
}
