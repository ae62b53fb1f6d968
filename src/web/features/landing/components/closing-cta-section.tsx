import { landingMessages } from '../../../../common/messages/landing.ts';
import { Container } from '../../../components/ui/container.tsx';
import { useLandingCatalog } from '../lib/landing-api.ts';
import { CatalogPhoto } from './catalog-photo.tsx';
import { SessionCta } from './session-cta.tsx';
import { belowTheFold } from '../lib/below-the-fold.ts';
import { cn } from '../../../lib/cn.ts';

/** The last word: one sentence, one button, framed by a few of the looks above. */
export function ClosingCtaSection() {
  const { categories } = useLandingCatalog();
  // The second look of each category: pictures the visitor has not just seen in the carousel.
  const looks = categories
    .map((category) => category.presets[1])
    .filter((preset) => preset !== undefined)
    .slice(0, 5);

  return (
    <section aria-labelledby="closing-title" className={cn('pb-20 md:pb-28', belowTheFold)}>
      <Container>
        <div className="relative isolate overflow-hidden rounded-[2rem] bg-accent-950 px-6 py-14 text-center md:px-12 md:py-20">
          <div aria-hidden="true" className="absolute inset-0 -z-10 flex opacity-35">
            {looks.map((preset) => (
              <CatalogPhoto
                key={preset.id}
                image={preset.featuredImage}
                alt=""
                sizes="20vw"
                className="h-full min-w-0 flex-1"
              />
            ))}
          </div>
          <div
            aria-hidden="true"
            className="absolute inset-0 -z-10 bg-gradient-to-b from-accent-950/70 via-accent-950/85 to-accent-950"
          />
          <h2
            id="closing-title"
            className="mx-auto max-w-2xl text-3xl leading-tight font-semibold text-white md:text-5xl"
          >
            {landingMessages.closingCta.title}
          </h2>
          <p className="mx-auto mt-4 max-w-xl text-base leading-relaxed text-accent-100 md:text-lg">
            {landingMessages.heroSubtitle}
          </p>
          <SessionCta
            signedOutLabel={landingMessages.closingCta.button}
            variant="primary"
            className="mt-8"
            arrow
          />
        </div>
      </Container>
    </section>
  );
}
