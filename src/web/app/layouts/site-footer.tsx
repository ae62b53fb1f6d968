import { Link } from 'react-router';
import { messages } from '../../../common/messages.ts';
import { routes } from '../../../common/product.ts';
import { BrandLogo } from '../../components/brand-logo.tsx';
import { Container } from '../../components/ui/container.tsx';

const footerLinkClasses =
  'rounded text-sm text-neutral-600 transition-colors hover:text-neutral-950 hover:underline underline-offset-4';

/** Public pages: brand blurb, Links, Legal, and the copyright line. */
export function SiteFooter() {
  return (
    <footer className="border-t border-neutral-200 bg-white">
      <Container className="grid gap-10 py-12 md:grid-cols-[2fr_1fr_1fr] md:py-16">
        <div className="flex max-w-sm flex-col gap-4">
          <BrandLogo />
          <p className="text-sm leading-relaxed text-neutral-600">{messages.footer.blurb}</p>
        </div>
        <nav aria-labelledby="footer-links" className="flex flex-col gap-3">
          <h2 id="footer-links" className="text-sm font-semibold text-neutral-950">
            {messages.footer.linksHeading}
          </h2>
          <ul className="flex flex-col gap-2.5">
            <li>
              <Link to={routes.home} className={footerLinkClasses}>
                {messages.footer.home}
              </Link>
            </li>
            <li>
              <Link to={routes.login} className={footerLinkClasses}>
                {messages.footer.login}
              </Link>
            </li>
            <li>
              <Link to={routes.contact} className={footerLinkClasses}>
                {messages.footer.contactUs}
              </Link>
            </li>
          </ul>
        </nav>
        <nav aria-labelledby="footer-legal" className="flex flex-col gap-3">
          <h2 id="footer-legal" className="text-sm font-semibold text-neutral-950">
            {messages.footer.legalHeading}
          </h2>
          <ul className="flex flex-col gap-2.5">
            <li>
              <Link to={routes.terms} className={footerLinkClasses}>
                {messages.footer.terms}
              </Link>
            </li>
            <li>
              <Link to={routes.privacy} className={footerLinkClasses}>
                {messages.footer.privacy}
              </Link>
            </li>
          </ul>
        </nav>
      </Container>
      <CopyrightLine className="border-t border-neutral-200" />
    </footer>
  );
}

/** The copyright line alone: the signed-in and plain layouts' footer. */
export function CopyrightLine({ className }: { className?: string }) {
  return (
    <div className={className}>
      <Container className="py-6">
        <p className="text-sm text-neutral-500">
          {messages.common.copyright(new Date().getFullYear())}
        </p>
      </Container>
    </div>
  );
}
