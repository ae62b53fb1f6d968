import type { ReactNode } from 'react';
import { navMessages } from '../../../common/messages/shell.ts';
import { routes } from '../../../common/product/routes.ts';
import { PageLink } from '../../components/page-link.tsx';
import { Button } from '../../components/ui/button.tsx';
import { cn } from '../../lib/cn.ts';
import { useSessionStatus } from '../../lib/session-status.ts';
import { LayoutFrame, TopBar } from './layout-frame.tsx';
import { MobileMenu, MobileMenuItem, mobileMenuLinkClasses } from './mobile-menu.tsx';
import { SiteFooter } from './site-footer.tsx';

const pricingLink = `${routes.home}#pricing`;

export const topBarLinkClasses =
  'inline-flex h-10 items-center rounded-full px-4 text-sm font-medium text-neutral-600 transition-colors hover:text-neutral-950 aria-[current=page]:text-neutral-950';

/**
 * The marketing top bar and the full footer around a public page (`children`): the router's
 * public layout (public-layout.tsx) and the landing page's own entry both draw it, so it needs
 * neither the router nor the data cache (decision 061).
 */
export function PublicFrame({ children }: { children: ReactNode }) {
  const status = useSessionStatus();
  const signedIn = status === 'signed-in';
  // Until the session is known the account buttons keep their room but stay hidden, so a
  // signed-in visitor never sees "Sign In" flash, and nothing shifts when they appear.
  const sessionKnown = status !== 'loading';

  return (
    <LayoutFrame
      header={
        <TopBar>
          <nav aria-label="Main" className="hidden items-center gap-1 md:flex">
            <PageLink to={routes.tryOn} markCurrent className={topBarLinkClasses}>
              {navMessages.tryOn}
            </PageLink>
            <PageLink to={pricingLink} className={topBarLinkClasses}>
              {navMessages.pricing}
            </PageLink>
          </nav>

          <div className="flex items-center gap-2">
            <div
              className={cn('flex items-center gap-2', !sessionKnown && 'invisible')}
              aria-hidden={sessionKnown ? undefined : true}
            >
              {signedIn ? (
                <Button asChild size="sm" className="md:h-10 md:px-5">
                  <PageLink to={routes.dashboard}>{navMessages.dashboard}</PageLink>
                </Button>
              ) : (
                <>
                  {/* max-md:hidden, not hidden: a variant wins over the button's own inline-flex. */}
                  <Button asChild variant="ghost" size="sm" className="max-md:hidden md:h-10">
                    <PageLink to={routes.login}>{navMessages.signIn}</PageLink>
                  </Button>
                  <Button asChild size="sm" className="md:h-10 md:px-5">
                    <PageLink to={routes.signup}>{navMessages.getStarted}</PageLink>
                  </Button>
                </>
              )}
            </div>
            <MobileMenu>
              <MobileMenuItem>
                <PageLink to={routes.tryOn} markCurrent className={mobileMenuLinkClasses}>
                  {navMessages.tryOn}
                </PageLink>
              </MobileMenuItem>
              <MobileMenuItem>
                <PageLink to={pricingLink} className={mobileMenuLinkClasses}>
                  {navMessages.pricing}
                </PageLink>
              </MobileMenuItem>
              {signedIn ? null : (
                <MobileMenuItem>
                  <PageLink to={routes.login} markCurrent className={mobileMenuLinkClasses}>
                    {navMessages.signIn}
                  </PageLink>
                </MobileMenuItem>
              )}
            </MobileMenu>
          </div>
        </TopBar>
      }
      footer={<SiteFooter />}
    >
      {children}
    </LayoutFrame>
  );
}
