import type { ReactNode } from 'react';
import { Menu, X } from 'lucide-react';
import { Dialog as DialogPrimitive } from 'radix-ui';
import { overlayClasses } from '../../components/ui/dialog.tsx';
import { BrandLogo } from '../../components/brand-logo.tsx';

/**
 * The top bar's links on phones, in a sheet that drops from the top. A Radix dialog, so focus is
 * trapped while it is open and returns to the menu button when it closes. Any link inside closes
 * it (see `MobileMenuItem`), since the page behind changes.
 */
export function MobileMenu({ children }: { children: ReactNode }) {
  return (
    <DialogPrimitive.Root>
      <DialogPrimitive.Trigger
        aria-label="Open menu"
        className="inline-flex size-11 items-center justify-center rounded-full text-neutral-800 transition-colors hover:bg-neutral-200/60 md:hidden"
      >
        <Menu aria-hidden="true" className="size-5" />
      </DialogPrimitive.Trigger>
      <DialogPrimitive.Portal>
        <DialogPrimitive.Overlay className={overlayClasses} />
        <DialogPrimitive.Content className="fixed inset-x-0 top-0 z-50 rounded-b-card bg-white px-5 pt-3 pb-6 shadow-lifted data-[state=open]:animate-fade-in focus:outline-none">
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

/** Wraps a menu entry so choosing it also closes the sheet. */
export function MobileMenuItem({ children }: { children: ReactNode }) {
  return <DialogPrimitive.Close asChild>{children}</DialogPrimitive.Close>;
}

export const mobileMenuLinkClasses =
  'flex h-12 items-center rounded-control px-3 text-base font-medium text-neutral-800 transition-colors hover:bg-neutral-100 aria-[current=page]:bg-neutral-100 aria-[current=page]:text-neutral-950';
