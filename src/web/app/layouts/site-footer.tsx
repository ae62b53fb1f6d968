import { memo } from 'react';
import { commonMessages, footerMessages } from '../../../common/messages/shell.ts';
import { routes } from '../../../common/product/routes.ts';
import { BrandLogo } from '../../components/brand-logo.tsx';
import { PageLink } from '../../components/page-link.tsx';
import { Container } from '../../components/ui/container.tsx';
import { useHydrationSafe } from '../../lib/use-hydration-safe.ts';

const footerLinkClasses =
  'rounded text-sm text-neutral-600 transition-colors hover:text-neutral-950 hover:underline underline-offset-4';

/** Public pages: brand blurb, Links, Legal, and the copyright line. Memoised, like PageOutlet. */
export const SiteFooter = memo(function SiteFooter() {
  return (
    <footer className="border-t border-neutral-200 bg-white">
      <Container className="grid gap-10 py-12 md:grid-cols-[2fr_1fr_1fr] md:py-16">
        <div className="flex max-w-sm flex-col gap-4">
          <BrandLogo />
          <p className="text-sm leading-relaxed text-neutral-600">{footerMessages.blurb}</p>
        </div>
        <nav aria-labelledby="footer-links" className="flex flex-col gap-3">
          <h2 id="footer-links" className="text-sm font-semibold text-neutral-950">
            {footerMessages.linksHeading}
          </h2>
          <ul className="flex flex-col gap-2.5">
            <li>
              <PageLink to={routes.home} className={footerLinkClasses}>
                {footerMessages.home}
              </PageLink>
            </li>
            <li>
              <PageLink to={routes.login} className={footerLinkClasses}>
                {footerMessages.login}
              </PageLink>
            </li>
            <li>
              <PageLink to={routes.contact} className={footerLinkClasses}>
                {footerMessages.contactUs}
              </PageLink>
            </li>
          </ul>
        </nav>
        <nav aria-labelledby="footer-legal" className="flex flex-col gap-3">
          <h2 id="footer-legal" className="text-sm font-semibold text-neutral-950">
            {footerMessages.legalHeading}
          </h2>
          <ul className="flex flex-col gap-2.5">
            <li>
              <PageLink to={routes.terms} className={footerLinkClasses}>
                {footerMessages.terms}
              </PageLink>
            </li>
            <li>
              <PageLink to={routes.privacy} className={footerLinkClasses}>
                {footerMessages.privacy}
              </PageLink>
            </li>
          </ul>
        </nav>
      </Container>
      <PictureCredits />
      <CopyrightLine className="border-t border-neutral-200" />
    </footer>
  );
});

/** The attribution the default content's CC BY pictures require, where they are shown. */
function PictureCredits() {
  const credits = footerMessages.pictureCredits;
  return (
    <Container className="pb-6">
      <p className="text-xs leading-relaxed text-neutral-500">
        {credits.before}
        <a href={credits.workUrl} className="underline underline-offset-2" rel="noopener">
          {credits.work}
        </a>
        {', '}
        <a
          href={credits.licenceUrl}
          className="underline underline-offset-2"
          rel="license noopener"
        >
          {credits.licence}
        </a>
        {credits.after}
      </p>
    </Container>
  );
}

/** The copyright line alone: the signed-in and plain layouts' footer. */
export function CopyrightLine({ className }: { className?: string }) {
  // While React takes over the prerendered landing page, the year it was built in: what that
  // markup says. The next render brings this year.
  const year = useHydrationSafe(new Date().getFullYear(), __BUILD_YEAR__);
  return (
    <div className={className}>
      <Container className="py-6">
        <p className="text-sm text-neutral-500">{commonMessages.copyright(year)}</p>
      </Container>
    </div>
  );
}
