import { Link, NavLink } from 'react-router';
import { navMessages } from '../../../common/messages/shell.ts';
import { routes } from '../../../common/product/routes.ts';
import { Button } from '../../components/ui/button.tsx';
import { cn } from '../../lib/cn.ts';
import { useSession } from '../../lib/session.ts';
import { LayoutFrame, TopBar } from './layout-frame.tsx';
import { MobileMenu, MobileMenuItem, mobileMenuLinkClasses } from './mobile-menu.tsx';
import { SiteFooter } from './site-footer.tsx';

const pricingLink = { pathname: routes.home, hash: '#pricing' } as const;

export const topBarLinkClasses =
  'inline-flex h-10 items-center rounded-full px-4 text-sm font-medium text-neutral-600 transition-colors hover:text-neutral-950 aria-[current=page]:text-neutral-950';

/** Landing, legal pages, try-on and the 404: the marketing top bar and the full footer. */
export function PublicLayout() {
  const { status } = useSession();
  const signedIn = status === 'signed-in';
  // Until the session is known the account buttons keep their room but stay hidden, so a
  // signed-in visitor never sees "Sign In" flash, and nothing shifts when they appear.
  const sessionKnown = status !== 'loading';

  return (
    <LayoutFrame
      header={
        <TopBar>
          <nav aria-label="Main" className="hidden items-center gap-1 md:flex">
            <NavLink to={routes.tryOn} className={topBarLinkClasses}>
              {navMessages.tryOn}
            </NavLink>
            <Link to={pricingLink} className={topBarLinkClasses}>
              {navMessages.pricing}
            </Link>
          </nav>

          <div className="flex items-center gap-2">
            <div
              className={cn('flex items-center gap-2', !sessionKnown && 'invisible')}
              aria-hidden={sessionKnown ? undefined : true}
            >
              {signedIn ? (
                <Button asChild size="sm" className="md:h-10 md:px-5">
                  <Link to={routes.dashboard}>{navMessages.dashboard}</Link>
                </Button>
              ) : (
                <>
                  {/* max-md:hidden, not hidden: a variant wins over the button's own inline-flex. */}
                  <Button asChild variant="ghost" size="sm" className="max-md:hidden md:h-10">
                    <Link to={routes.login}>{navMessages.signIn}</Link>
                  </Button>
                  <Button asChild size="sm" className="md:h-10 md:px-5">
                    <Link to={routes.signup}>{navMessages.getStarted}</Link>
                  </Button>
                </>
              )}
            </div>
            <MobileMenu>
              <MobileMenuItem>
                <NavLink to={routes.tryOn} className={mobileMenuLinkClasses}>
                  {navMessages.tryOn}
                </NavLink>
              </MobileMenuItem>
              <MobileMenuItem>
                <Link to={pricingLink} className={mobileMenuLinkClasses}>
                  {navMessages.pricing}
                </Link>
              </MobileMenuItem>
              {signedIn ? null : (
                <MobileMenuItem>
                  <NavLink to={routes.login} className={mobileMenuLinkClasses}>
                    {navMessages.signIn}
                  </NavLink>
                </MobileMenuItem>
              )}
            </MobileMenu>
          </div>
        </TopBar>
      }
      footer={<SiteFooter />}
    />
  );
}
