import { LogOut } from 'lucide-react';
import { NavLink } from 'react-router';
import { navMessages } from '../../../common/messages/shell.ts';
import { routes } from '../../../common/product/routes.ts';
import { BrandLogo } from '../../components/brand-logo.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Container } from '../../components/ui/container.tsx';
import { cn } from '../../lib/cn.ts';
import { useSignOut } from '../../lib/sign-out.ts';
import { HeaderCredits } from '../../features/billing/components/header-credits.tsx';
import { MobileMenu, MobileMenuItem, mobileMenuLinkClasses } from './mobile-menu.tsx';
import { PageOutlet } from './page-outlet.tsx';
import { topBarLinkClasses } from './public-layout.tsx';
import { CopyrightLine } from './site-footer.tsx';
import { SkipLink } from './skip-link.tsx';

const links = [
  { to: routes.tryOn, label: navMessages.tryOn },
  { to: routes.buyCredits, label: navMessages.buyCredits },
  { to: routes.account, label: navMessages.account },
] as const;

/** Signed-in pages (inside RequireAuth): studio navigation, Logout, and a copyright footer. */
export function AppLayout() {
  const { signOut, isSigningOut } = useSignOut();

  return (
    <div className="flex min-h-dvh flex-col">
      <SkipLink />
      <header className="sticky top-0 z-40 border-b border-neutral-200/70 bg-neutral-50/85 backdrop-blur-md">
        <Container className="flex h-16 items-center justify-between gap-4 md:h-18">
          <BrandLogo />
          <div className="ml-auto flex items-center md:order-last md:ml-0">
            <HeaderCredits />
          </div>
          <nav aria-label="Main" className="hidden items-center gap-1 md:ml-auto md:flex">
            {links.map((link) => (
              <NavLink key={link.to} to={link.to} className={topBarLinkClasses}>
                {link.label}
              </NavLink>
            ))}
            <Button
              variant="ghost"
              size="sm"
              className="ml-2 md:h-10"
              loading={isSigningOut}
              onClick={() => void signOut()}
            >
              {isSigningOut ? null : <LogOut aria-hidden="true" className="size-4" />}
              {navMessages.logout}
            </Button>
          </nav>
          <MobileMenu>
            {links.map((link) => (
              <MobileMenuItem key={link.to}>
                <NavLink to={link.to} className={mobileMenuLinkClasses}>
                  {link.label}
                </NavLink>
              </MobileMenuItem>
            ))}
            <MobileMenuItem>
              <button
                type="button"
                className={cn(mobileMenuLinkClasses, 'w-full cursor-pointer text-left')}
                disabled={isSigningOut}
                onClick={() => void signOut()}
              >
                {navMessages.logout}
              </button>
            </MobileMenuItem>
          </MobileMenu>
        </Container>
      </header>

      <main id="main" tabIndex={-1} className="flex flex-1 flex-col focus:outline-none">
        <PageOutlet />
      </main>

      <footer className="border-t border-neutral-200 bg-white">
        <CopyrightLine />
      </footer>
    </div>
  );
}
