import { landingMessages } from '../../../../common/messages/landing.ts';
import { landingCarouselCategories } from '../../../../common/product/landing.ts';
import { layout, timings } from '../../../../common/product/timings.ts';
import { Container } from '../../../components/ui/container.tsx';
import { Skeleton } from '../../../components/ui/skeleton.tsx';
import { carouselItemClasses } from '../../../lib/carousel-layout.ts';
import { cn } from '../../../lib/cn.ts';
import { useLandingCatalog } from '../lib/landing-api.ts';
import { useSectionAutoAdvance } from '../lib/use-auto-advance.ts';
import { CatalogPhoto } from './catalog-photo.tsx';
import { CategoryTabs } from './category-tabs.tsx';
import { SectionHeading } from './section-heading.tsx';
import { belowTheFold } from '../lib/below-the-fold.ts';

const cardSizes = `(min-width: ${layout.mobileBreakpointPx}px) ${layout.presetCardWidthPx}px, 50vw`;

/**
 * "Made with Likeness": five categories, one at a time, each with all the looks the catalog sends
 * (up to 8) in a row that snaps card by card, 2 per view on phones and 4 from 768 px. It moves on
 * every few seconds with a progress bar until the visitor picks a category or scrolls a row,
 * after which it stays where they put it.
 */
export function ExamplesCarouselSection() {
  const { categories } = useLandingCatalog();
  // The five carousel categories, in their fixed order, as far as the catalog has them.
  const slides = landingCarouselCategories.flatMap((item) => {
    const category = categories.find((candidate) => candidate.manualId === item.id);
    return category && category.presets.length ? [{ ...item, presets: category.presets }] : [];
  });
  const { section, index, progress, running, select } = useSectionAutoAdvance(slides.length);
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
          // A new key replays the fade (the carousel's transition between categories) and brings
          // the row back to its first card.
          key={slide?.id ?? 'loading'}
          id="examples-panel"
          role="tabpanel"
          aria-labelledby={slide ? `examples-tab-${slide.id}` : undefined}
          // The row scrolls, by touch, trackpad or (focused) arrow keys, to the category's other
          // looks; scrolling it is a choice by hand, so the categories stop taking turns.
          tabIndex={slide ? 0 : undefined}
          onScroll={running ? () => select(index) : undefined}
          className="w-full animate-fade-in snap-x snap-mandatory overflow-x-auto pb-3 [scrollbar-color:rgb(255_255_255/0.3)_transparent] [scrollbar-width:thin]"
          style={{ animationDuration: `${timings.carousel.transitionMs}ms` }}
        >
          <ul className="flex gap-4">
            {slide
              ? slide.presets.map((preset) => (
                  <li
                    key={preset.id}
                    data-testid="example-card"
                    className={cn(
                      carouselItemClasses,
                      'relative overflow-hidden rounded-card bg-neutral-800',
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
              : Array.from({ length: layout.cardsPerView.medium }, (_, key) => (
                  <li key={key} className={carouselItemClasses}>
                    <Skeleton shape="card" className="aspect-[4/5] w-full bg-white/10" />
                  </li>
                ))}
          </ul>
        </div>
      </Container>
    </section>
  );
}
