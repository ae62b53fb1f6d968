import type { ReactNode } from 'react';
import { BrandLogo } from '../../components/brand-logo.tsx';
import { Container } from '../../components/ui/container.tsx';
import { SkipLink } from './skip-link.tsx';

/**
 * What every layout is: the skip link, its header, the page in `main` (where the skip link
 * goes) and its footer. The page is `children`: the router's outlet (PageOutlet), or the landing
 * page itself in its own entry.
 */
export function LayoutFrame({
  header,
  footer,
  children,
}: {
  header: ReactNode;
  footer: ReactNode;
  children: ReactNode;
}) {
  return (
    <div className="flex min-h-dvh flex-col">
      <SkipLink />
      {header}
      <main id="main" tabIndex={-1} className="flex flex-1 flex-col focus:outline-none">
        {children}
      </main>
      {footer}
    </div>
  );
}

/** The sticky top bar of the public and the signed-in layouts: the brand, then `children`. */
export function TopBar({ children }: { children: ReactNode }) {
  return (
    <header className="sticky top-0 z-40 border-b border-neutral-200/70 bg-neutral-50/85 backdrop-blur-md">
      <Container className="flex h-16 items-center justify-between gap-4 md:h-18">
        <BrandLogo />
        {children}
      </Container>
    </header>
  );
}
