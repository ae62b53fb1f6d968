import { useRef } from 'react';
import { landingMessages } from '../../../../common/messages/landing.ts';
import { landingCarouselCategories, layout, timings } from '../../../../common/product.ts';
import { Container } from '../../../components/ui/container.tsx';
import { Skeleton } from '../../../components/ui/skeleton.tsx';
import { cn } from '../../../lib/cn.ts';
import { useLandingCatalog } from '../lib/landing-api.ts';
import { useAutoAdvance } from '../lib/use-auto-advance.ts';
import { useInView } from '../lib/use-in-view.ts';
import { useReducedMotion } from '../lib/use-reduced-motion.ts';
import { CatalogPhoto } from './catalog-photo.tsx';
import { CategoryTabs } from './category-tabs.tsx';
import { SectionHeading } from './section-heading.tsx';
import { belowTheFold } from '../lib/below-the-fold.ts';

const { small, medium } = layout.cardsPerView;
// Cards past the phone's count are hidden below the breakpoint (768 px, md).
const cardSizes = `(min-width: ${layout.mobileBreakpointPx}px) 270px, 45vw`;

/**
 * "Made with Likeness": five categories, one at a time, each with its best looks (2 cards per
 * view on phones, 4 from 768 px). It moves on every few seconds with a progress bar until the
 * visitor picks a category, after which it stays where they put it.
 */
export function ExamplesCarouselSection() {
  const { categories } = useLandingCatalog();
  const reducedMotion = useReducedMotion();
  const section = useRef<HTMLElement>(null);
  const inView = useInView(section);
  // The five carousel categories, in their fixed order, as far as the catalog has them.
  const slides = landingCarouselCategories.flatMap((item) => {
    const category = categories.find((candidate) => candidate.manualId === item.id);
    return category && category.presets.length ? [{ ...item, presets: category.presets }] : [];
  });
  const { index, progress, running, select } = useAutoAdvance(slides.length, {
    enabled: inView && !reducedMotion,
  });
  const slide = slides[index];

  return (
    <section
      ref={section}
      aria-labelledby="examples-title"
      className={cn('bg-neutral-950 py-16 text-white md:py-24', belowTheFold)}
      data-testid="examples-carousel"
    >
      <Container className="flex flex-col items-center gap-8">
        <SectionHeading
          id="examples-title"
          tone="dark"
          title={landingMessages.examplesTitle}
          subtitle={landingMessages.examplesSubtitle}
        />
        {slides.length ? (
          <CategoryTabs
            idPrefix="examples"
            tone="dark"
            label={landingMessages.examplesCategoriesLabel}
            tabs={slides.map((item) => ({ id: item.id, label: item.label }))}
            selected={index}
            progress={running ? progress : null}
            onSelect={select}
          />
        ) : (
          <Skeleton shape="pill" className="h-12 w-full max-w-md bg-white/10" />
        )}

        <div
          id="examples-panel"
          role="tabpanel"
          aria-labelledby={slide ? `examples-tab-${slide.id}` : undefined}
          className="w-full"
        >
          <ul
            // A new key replays the fade, the carousel's transition between categories.
            key={slide?.id ?? 'loading'}
            className="grid w-full animate-fade-in grid-cols-2 gap-3 md:grid-cols-4 md:gap-5"
            style={{ animationDuration: `${timings.carousel.transitionMs}ms` }}
          >
            {slide
              ? slide.presets.slice(0, medium).map((preset, cardIndex) => (
                  <li
                    key={preset.id}
                    data-testid="example-card"
                    className={cn(
                      'relative overflow-hidden rounded-card bg-neutral-800',
                      cardIndex >= small && 'max-md:hidden',
                    )}
                  >
                    <CatalogPhoto
                      image={preset.featuredImage}
                      sizes={cardSizes}
                      className="h-auto w-full"
                    />
                    <p className="absolute inset-x-0 bottom-0 bg-gradient-to-t from-black/75 to-transparent px-4 pt-10 pb-3 text-sm font-medium">
                      {preset.displayName}
                    </p>
                  </li>
                ))
              : Array.from({ length: medium }, (_, key) => (
                  <li key={key} className={cn(key >= small && 'max-md:hidden')}>
                    <Skeleton shape="card" className="aspect-[4/5] w-full bg-white/10" />
                  </li>
                ))}
          </ul>
        </div>
      </Container>
    </section>
  );
}
