import { BrandLogo } from '../../components/brand-logo.tsx';
import { Container } from '../../components/ui/container.tsx';
import { PageOutlet } from './page-outlet.tsx';
import { CopyrightLine } from './site-footer.tsx';
import { SkipLink } from './skip-link.tsx';

/**
 * Quiet pages (auth screens, legal pages, contact, checkout returns): the brand link home and
 * nothing to wander off to; the footer is the copyright line alone.
 */
export function PlainLayout() {
  return (
    <div className="flex min-h-dvh flex-col">
      <SkipLink />
      <header>
        <Container className="flex h-16 items-center md:h-18">
          <BrandLogo />
        </Container>
      </header>
      <main id="main" tabIndex={-1} className="flex flex-1 flex-col focus:outline-none">
        <PageOutlet />
      </main>
      <footer>
        <CopyrightLine />
      </footer>
    </div>
  );
}
