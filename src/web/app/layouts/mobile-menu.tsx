import {
  createContext,
  lazy,
  Suspense,
  useCallback,
  useContext,
  useId,
  useRef,
  useState,
  type ReactNode,
} from 'react';
import { Menu } from 'lucide-react';
import { Slot } from 'radix-ui';

const loadSheet = () => import('./mobile-menu-sheet.tsx');
const MobileMenuSheet = lazy(async () => ({ default: (await loadSheet()).MobileMenuSheet }));

const CloseMenuContext = createContext<() => void>(() => {});

/**
 * The top bar's links on phones, in a sheet that drops from the top (a Radix dialog: focus is
 * trapped while it is open and returns to the menu button when it closes). Only the button is
 * part of the page; the sheet's code loads when someone reaches for the button, so pages that
 * are never navigated this way do not download the dialog. Any link inside closes it (see
 * `MobileMenuItem`), since the page behind changes.
 */
export function MobileMenu({ children }: { children: ReactNode }) {
  const [open, setOpen] = useState(false);
  // Once opened, the sheet stays mounted (closed), so it can animate and reopen at once.
  const [wanted, setWanted] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const sheetId = useId();
  const close = useCallback(() => setOpen(false), []);

  return (
    <>
      <button
        ref={button}
        type="button"
        aria-label="Open menu"
        aria-haspopup="dialog"
        aria-expanded={open}
        aria-controls={open ? sheetId : undefined}
        // Pressing (or tabbing to) the button starts the download before the click lands.
        onPointerDown={() => void loadSheet()}
        onFocus={() => void loadSheet()}
        onClick={() => {
          setWanted(true);
          setOpen(true);
        }}
        className="inline-flex size-11 items-center justify-center rounded-full text-neutral-800 transition-colors hover:bg-neutral-200/60 md:hidden"
      >
        <Menu aria-hidden="true" className="size-5" />
      </button>
      {wanted ? (
        <Suspense fallback={null}>
          <CloseMenuContext.Provider value={close}>
            <MobileMenuSheet id={sheetId} open={open} onOpenChange={setOpen} returnFocus={button}>
              {children}
            </MobileMenuSheet>
          </CloseMenuContext.Provider>
        </Suspense>
      ) : null}
    </>
  );
}

/** Wraps a menu entry so choosing it also closes the sheet. */
export function MobileMenuItem({ children }: { children: ReactNode }) {
  const close = useContext(CloseMenuContext);
  return <Slot.Root onClick={close}>{children}</Slot.Root>;
}

export const mobileMenuLinkClasses =
  'flex h-12 items-center rounded-control px-3 text-base font-medium text-neutral-800 transition-colors hover:bg-neutral-100 aria-[current=page]:bg-neutral-100 aria-[current=page]:text-neutral-950';
