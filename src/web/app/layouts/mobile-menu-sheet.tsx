import type { ReactNode, RefObject } from 'react';
import { X } from 'lucide-react';
import { Dialog as DialogPrimitive } from 'radix-ui';
import { BrandLogo } from '../../components/brand-logo.tsx';
import { overlayClasses } from '../../components/ui/dialog.tsx';

export interface MobileMenuSheetProps {
  id: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The menu button, which gets the focus back when the sheet closes. */
  returnFocus: RefObject<HTMLButtonElement | null>;
  children: ReactNode;
}

/** The mobile menu's sheet; loaded on demand by `MobileMenu` (mobile-menu.tsx). */
export function MobileMenuSheet({
  id,
  open,
  onOpenChange,
  returnFocus,
  children,
}: MobileMenuSheetProps) {
  return (
    <DialogPrimitive.Root open={open} onOpenChange={onOpenChange}>
      <DialogPrimitive.Portal>
        <DialogPrimitive.Overlay className={overlayClasses} />
        <DialogPrimitive.Content
          id={id}
          // The button is ours, not a Radix trigger, so Radix cannot know where to return.
          onCloseAutoFocus={(event) => {
            event.preventDefault();
            returnFocus.current?.focus();
          }}
          className="fixed inset-x-0 top-0 z-50 rounded-b-card bg-white px-5 pt-3 pb-6 shadow-lifted data-[state=open]:animate-fade-in focus:outline-none"
        >
          <DialogPrimitive.Title className="sr-only">Menu</DialogPrimitive.Title>
          <DialogPrimitive.Description className="sr-only">
            Site navigation
          </DialogPrimitive.Description>
          <div className="flex h-13 items-center justify-between">
            <DialogPrimitive.Close asChild>
              <BrandLogo />
            </DialogPrimitive.Close>
            <DialogPrimitive.Close
              aria-label="Close menu"
              className="inline-flex size-11 items-center justify-center rounded-full text-neutral-800 transition-colors hover:bg-neutral-100"
            >
              <X aria-hidden="true" className="size-5" />
            </DialogPrimitive.Close>
          </div>
          <nav aria-label="Main" className="mt-4 flex flex-col gap-1">
            {children}
          </nav>
        </DialogPrimitive.Content>
      </DialogPrimitive.Portal>
    </DialogPrimitive.Root>
  );
}
