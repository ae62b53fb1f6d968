import { ArrowLeft } from 'lucide-react';
import { notFoundMessages, pageTitleMessages } from '../../common/messages/shell.ts';
import { routes } from '../../common/product/routes.ts';
import { ButtonLink } from '../components/button-link.tsx';
import { Image } from '../components/image.tsx';
import { Container } from '../components/ui/container.tsx';
import { usePageTitle } from '../lib/use-page-title.ts';
import emptyFrameUrl from '../assets/illustrations/empty-frame.svg';

/** Any path no route claims. */
export function NotFoundPage() {
  usePageTitle(pageTitleMessages.notFound);

  return (
    <Container
      size="sm"
      className="flex flex-1 flex-col items-center justify-center py-16 md:py-24"
    >
      <div className="flex flex-col items-center gap-6 text-center">
        <Image
          src={emptyFrameUrl}
          alt="An empty picture frame on a studio wall"
          width={240}
          height={180}
          loading="eager"
          className="w-48 rounded-card md:w-60"
        />
        <p className="text-6xl font-semibold tracking-tight text-accent-600 md:text-7xl">
          {notFoundMessages.code}
        </p>
        <h1 className="text-2xl font-semibold text-neutral-950 md:text-3xl">
          {notFoundMessages.title}
        </h1>
        <ButtonLink to={routes.home} icon={ArrowLeft} size="lg" className="mt-2">
          {notFoundMessages.homeLink}
        </ButtonLink>
      </div>
    </Container>
  );
}
