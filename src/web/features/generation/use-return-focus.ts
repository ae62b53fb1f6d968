import { useRef } from 'react';

/**
 * Focus goes back where it was when a dialog closes. Radix does this only for dialogs opened by
 * their own `DialogTrigger`; these dialogs are opened by a card or a toolbar button elsewhere,
 * so the element that had focus is remembered as the dialog opens. Spread onto `DialogContent`.
 */
export function useReturnFocus() {
  const returnTo = useRef<HTMLElement | null>(null);
  return {
    onOpenAutoFocus: () => {
      const active = document.activeElement;
      returnTo.current = active instanceof HTMLElement && active !== document.body ? active : null;
    },
    onCloseAutoFocus: (event: Event) => {
      if (!returnTo.current?.isConnected) return;
      event.preventDefault();
      returnTo.current.focus();
    },
  };
}
