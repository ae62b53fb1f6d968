import { Check, Sparkles } from 'lucide-react';
import { landingMessages } from '../../../../common/messages/landing.ts';
import { timings } from '../../../../common/product/timings.ts';
import { Badge } from '../../../components/ui/badge.tsx';
import { Container } from '../../../components/ui/container.tsx';
import { Skeleton } from '../../../components/ui/skeleton.tsx';
import { cn } from '../../../lib/cn.ts';
import { allPresets, useLandingCatalog } from '../lib/landing-api.ts';
import { useAutoAdvance } from '../lib/use-auto-advance.ts';
import { useReducedMotion } from '../lib/use-reduced-motion.ts';
import { CatalogPhoto } from './catalog-photo.tsx';
import { SessionCta } from './session-cta.tsx';

// Three prints fanned on a table: the middle one leads (and is the page's largest picture).
const slots = [
  {
    frame: 'w-[31%] -rotate-3 translate-y-4 md:-rotate-6 md:translate-y-10',
    sizes: '(min-width: 768px) 200px, 31vw',
  },
  { frame: 'z-10 -mx-[3%] w-[40%] md:-mx-[5%]', sizes: '(min-width: 768px) 260px, 40vw' },
  {
    frame: 'w-[31%] rotate-3 translate-y-4 md:rotate-6 md:translate-y-10',
    sizes: '(min-width: 768px) 200px, 31vw',
  },
] as const;

/** What Likeness does, the one next step, and a slowly changing preview of the preset gallery. */
export function HeroSection() {
  const { categories, isPending } = useLandingCatalog();
  const reducedMotion = useReducedMotion();
  // One step per slide (not per progress tick): the hero re-renders only when it changes.
  const presets = allPresets(categories);
  const { index } = useAutoAdvance(presets.length, {
    enabled: !reducedMotion,
    tickMs: timings.carousel.slideMs,
  });
  // Steps of three, so each rotation shows three new looks, always from different categories
  // (presets come grouped by category, so neighbours differ once we stride across them).
  const stride = Math.max(1, Math.floor(presets.length / slots.length));

  return (
    <section aria-labelledby="hero-title" className="relative isolate overflow-hidden">
      {/* Soft warm light behind the hero, like a studio lamp; purely decorative. */}
      <div
        aria-hidden="true"
        className="absolute inset-x-0 -top-40 -z-10 mx-auto h-[36rem] max-w-5xl rounded-full bg-[radial-gradient(closest-side,var(--color-accent-100),transparent)] opacity-80"
      />
      <Container className="grid items-center gap-12 pt-10 pb-16 md:grid-cols-[1.05fr_1fr] md:gap-12 md:pt-20 md:pb-28">
        <div className="flex flex-col items-start gap-6">
          <Badge variant="accent" size="md">
            <Sparkles aria-hidden="true" />
            {landingMessages.claims[3]}
          </Badge>
          <h1
            id="hero-title"
            className="text-4xl leading-[1.08] font-semibold text-neutral-950 md:text-5xl lg:text-6xl"
          >
            {landingMessages.heroTitle}
          </h1>
          <p className="max-w-xl text-lg leading-relaxed text-neutral-600">
            {landingMessages.heroSubtitle}
          </p>
          <SessionCta signedOutLabel={landingMessages.heroCta} arrow />
          <ul className="flex flex-wrap gap-x-5 gap-y-2 text-sm text-neutral-600">
            {landingMessages.claims
              .filter((_, claimIndex) => claimIndex !== 3)
              .map((claim) => (
                <li key={claim} className="inline-flex items-center gap-1.5">
                  <Check aria-hidden="true" className="size-4 text-accent-600" />
                  {claim}
                </li>
              ))}
          </ul>
        </div>

        <div
          role="group"
          aria-label={landingMessages.heroPreviewLabel}
          className="mx-auto flex w-full max-w-md items-center justify-center pb-6 md:max-w-none"
        >
          {slots.map((slot, slotIndex) => {
            const preset = presets.length
              ? presets[(index + slotIndex * stride) % presets.length]
              : undefined;
            return (
              <figure
                key={slotIndex}
                className={cn(
                  'relative shrink-0 overflow-hidden rounded-card bg-white p-1.5 shadow-lifted ring-1 ring-neutral-200/70 md:p-2',
                  slot.frame,
                )}
              >
                {preset ? (
                  <>
                    <CatalogPhoto
                      // A new key fades the next look in rather than swapping it abruptly.
                      key={preset.id}
                      image={preset.featuredImage}
                      sizes={slot.sizes}
                      // Above the fold: the first pictures load at once, the middle one first.
                      loading="eager"
                      fetchPriority={slotIndex === 1 && index === 0 ? 'high' : 'auto'}
                      className="h-auto w-full animate-fade-in rounded-[calc(var(--radius-card)-0.375rem)]"
                    />
                    <figcaption className="absolute inset-x-3 bottom-3 hidden truncate rounded-full bg-white/90 px-3 py-1.5 text-center text-xs font-medium text-neutral-800 backdrop-blur md:block">
                      {preset.displayName}
                    </figcaption>
                  </>
                ) : (
                  <Skeleton
                    className={cn(
                      'aspect-[4/5] w-full rounded-[calc(var(--radius-card)-0.375rem)]',
                      !isPending && 'animate-none',
                    )}
                  />
                )}
              </figure>
            );
          })}
        </div>
      </Container>
    </section>
  );
}
