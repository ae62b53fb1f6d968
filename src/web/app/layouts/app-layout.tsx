import { LogOut } from 'lucide-react';
import { NavLink } from 'react-router';
import { navMessages } from '../../../common/messages/shell.ts';
import { routes } from '../../../common/product/routes.ts';
import { Button } from '../../components/ui/button.tsx';
import { cn } from '../../lib/cn.ts';
import { useSignOut } from '../../lib/sign-out.ts';
import { HeaderCredits } from '../../features/billing/components/header-credits.tsx';
import { LayoutFrame, TopBar } from './layout-frame.tsx';
import { MobileMenu, MobileMenuItem, mobileMenuLinkClasses } from './mobile-menu.tsx';
import { PageOutlet } from './page-outlet.tsx';
import { topBarLinkClasses } from './public-frame.tsx';
import { CopyrightLine } from './site-footer.tsx';

const links = [
  { to: routes.tryOn, label: navMessages.tryOn },
  { to: routes.buyCredits, label: navMessages.buyCredits },
  { to: routes.account, label: navMessages.account },
] as const;

/** Signed-in pages (inside RequireAuth): studio navigation, Logout, and a copyright footer. */
export function AppLayout() {
  const { signOut, isSigningOut } = useSignOut();

  return (
    <LayoutFrame
      header={
        <TopBar>
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
        </TopBar>
      }
      footer={
        <footer className="border-t border-neutral-200 bg-white">
          <CopyrightLine />
        </footer>
      }
    >
      <PageOutlet />
    </LayoutFrame>
  );
}
