import { useEffect, useRef } from 'react';
import { landingMessages } from '../../../../common/messages/landing.ts';
import { layout, timings } from '../../../../common/product/timings.ts';
import { Container } from '../../../components/ui/container.tsx';
import { Skeleton } from '../../../components/ui/skeleton.tsx';
import { type LandingCategory, useLandingCatalog } from '../lib/landing-api.ts';
import { useSectionAutoAdvance } from '../lib/use-auto-advance.ts';
import { CatalogPhoto } from './catalog-photo.tsx';
import { CategoryTabs } from './category-tabs.tsx';
import { SectionHeading } from './section-heading.tsx';
import { belowTheFold } from '../lib/below-the-fold.ts';
import { cn } from '../../../lib/cn.ts';

const cardWidth = layout.presetCardWidthPx;
const cardSizes = `${cardWidth}px`;

/**
 * "Choose your style": category tabs that take turns on their own (progress under the tab, the
 * row fading in), each showing its presets in a row that scrolls slowly and stops under the
 * pointer or keyboard focus so a look can be studied.
 */
export function PresetShowcaseSection() {
  const { categories, isPending } = useLandingCatalog();
  const { section, reducedMotion, index, progress, running, select } = useSectionAutoAdvance(
    categories.length,
  );
  const category = categories[index];

  return (
    <section
      ref={section}
      aria-labelledby="presets-title"
      className={cn('overflow-hidden bg-white py-16 md:py-24', belowTheFold)}
    >
      <Container className="flex flex-col items-center gap-8">
        <SectionHeading
          id="presets-title"
          title={landingMessages.presets.title}
          subtitle={landingMessages.presets.subtitle}
        />
        {categories.length ? (
          <CategoryTabs
            idPrefix="showcase"
            label={landingMessages.presets.tabsLabel}
            tabs={categories.map((item) => ({
              id: item.manualId,
              label: item.displayName,
              emoji: item.emoji,
            }))}
            selected={index}
            progress={running ? progress : null}
            onSelect={select}
          />
        ) : (
          <Skeleton shape="pill" className="h-12 w-full max-w-lg" />
        )}
      </Container>

      <div
        id="showcase-panel"
        role="tabpanel"
        aria-labelledby={category ? `showcase-tab-${category.manualId}` : undefined}
        aria-busy={isPending || undefined}
        className="mt-10"
      >
        {category ? (
          <MarqueeRow key={category.manualId} category={category} reducedMotion={reducedMotion} />
        ) : (
          <div className="flex gap-4 overflow-hidden px-5">
            {[0, 1, 2, 3, 4].map((key) => (
              <Skeleton
                key={key}
                shape="card"
                className="aspect-[4/5] shrink-0"
                style={{ width: cardWidth }}
              />
            ))}
          </div>
        )}
      </div>
    </section>
  );
}

/**
 * One category's presets, twice over, sliding left forever; the copy is hidden from assistive
 * technology. The speed follows the number of cards: each card takes one carousel slide to pass,
 * so a short row does not race and a long one does not crawl.
 */
function MarqueeRow({
  category,
  reducedMotion,
}: {
  category: LandingCategory;
  reducedMotion: boolean;
}) {
  const track = useRef<HTMLUListElement>(null);
  const animation = useRef<Animation | null>(null);
  const count = category.presets.length;

  useEffect(() => {
    const element = track.current;
    if (reducedMotion || !element || count === 0 || !element.animate) return;
    // The Web Animations API runs on the compositor and can be paused by hover without CSS
    // keyframes in the global stylesheet.
    const running = element.animate(
      [{ transform: 'translateX(0)' }, { transform: 'translateX(-50%)' }],
      { duration: count * timings.carousel.slideMs, iterations: Infinity },
    );
    animation.current = running;
    return () => running.cancel();
  }, [count, reducedMotion]);

  const pause = () => animation.current?.pause();
  const play = () => animation.current?.play();

  return (
    <div
      className="animate-fade-in overflow-x-auto [scrollbar-width:none] motion-safe:overflow-x-hidden"
      style={{ animationDuration: `${timings.carousel.transitionMs}ms` }}
      onMouseEnter={pause}
      onMouseLeave={play}
      onFocus={pause}
      onBlur={play}
      data-testid="preset-marquee"
      // Still, the row scrolls by hand instead, so it must be reachable by keyboard too.
      tabIndex={reducedMotion ? 0 : undefined}
      role={reducedMotion ? 'region' : undefined}
      aria-label={reducedMotion ? category.displayName : undefined}
    >
      <ul ref={track} className="flex w-max gap-4 px-2">
        {(reducedMotion ? [0] : [0, 1]).map((copy) =>
          category.presets.map((preset) => (
            <li
              key={`${copy}-${preset.id}`}
              aria-hidden={copy === 1 ? true : undefined}
              className="group relative shrink-0 overflow-hidden rounded-card bg-neutral-100 shadow-card"
              style={{ width: cardWidth }}
            >
              <CatalogPhoto
                image={preset.featuredImage}
                alt={copy === 1 ? '' : preset.featuredImage.alt}
                sizes={cardSizes}
                className="h-auto w-full transition-transform duration-500 group-hover:scale-[1.03]"
              />
              <p className="absolute inset-x-3 bottom-3 truncate rounded-full bg-white/90 px-3 py-1.5 text-center text-sm font-medium text-neutral-900 backdrop-blur">
                {preset.displayName}
              </p>
            </li>
          )),
        )}
      </ul>
    </div>
  );
}
