import { createContext, useContext, type ComponentProps, type MouseEvent } from 'react';

/** What a page link needs from the app's router: where it is, and a way to move without a load. */
export interface PageNavigation {
  /** The path of the page shown now. */
  pathname: string;
  /** Shows `to` (a path, with its query and hash) without loading a new document. */
  navigate: (to: string) => void;
}

const PageNavigationContext = createContext<PageNavigation | null>(null);

/**
 * Given by the app's router (router.tsx). The landing page's own entry has no router, so its
 * links load the page they name, as plain links do: that keeps the router and the data cache
 * out of the first visit's JavaScript (decision 061).
 */
export const PageNavigationProvider = PageNavigationContext.Provider;

export interface PageLinkProps extends Omit<ComponentProps<'a'>, 'href'> {
  /** An absolute path of the app, with its query and hash if any. */
  to: string;
  /** `aria-current="page"` while the link's path is the page shown (a navigation bar's links). */
  markCurrent?: boolean;
}

/**
 * A link to a page of the app: a client-side navigation inside the router, a plain link without
 * one. A click that asks for a new tab or window (a modifier key, the middle button) stays the
 * browser's.
 */
export function PageLink({ to, markCurrent = false, onClick, ...props }: PageLinkProps) {
  const navigation = useContext(PageNavigationContext);
  const current = markCurrent && navigation !== null && navigation.pathname === pathOf(to);
  return (
    <a
      href={to}
      aria-current={current ? 'page' : undefined}
      {...props}
      onClick={(event) => {
        onClick?.(event);
        if (!navigation || !isPlainClick(event) || props.target) return;
        event.preventDefault();
        navigation.navigate(to);
      }}
    />
  );
}

function pathOf(to: string): string {
  return to.split(/[?#]/, 1)[0]!;
}

function isPlainClick(event: MouseEvent<HTMLAnchorElement>): boolean {
  return (
    !event.defaultPrevented &&
    event.button === 0 &&
    !event.metaKey &&
    !event.altKey &&
    !event.ctrlKey &&
    !event.shiftKey
  );
}
