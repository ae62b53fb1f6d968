import { BrandLogo } from '../../components/brand-logo.tsx';
import { Container } from '../../components/ui/container.tsx';
import { LayoutFrame } from './layout-frame.tsx';
import { PageOutlet } from './page-outlet.tsx';
import { CopyrightLine } from './site-footer.tsx';

/**
 * Quiet pages (auth screens, legal pages, contact, checkout returns): the brand link home and
 * nothing to wander off to; the footer is the copyright line alone.
 */
export function PlainLayout() {
  return (
    <LayoutFrame
      header={
        <header>
          <Container className="flex h-16 items-center md:h-18">
            <BrandLogo />
          </Container>
        </header>
      }
      footer={
        <footer>
          <CopyrightLine />
        </footer>
      }
    >
      <PageOutlet />
    </LayoutFrame>
  );
}
