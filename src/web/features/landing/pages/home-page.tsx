import { ArrowRight, Check, Sparkles } from 'lucide-react';
import { Link } from 'react-router';
import { messages } from '../../../../common/messages.ts';
import { routes } from '../../../../common/product.ts';
import { Image } from '../../../components/image.tsx';
import { Badge } from '../../../components/ui/badge.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Container } from '../../../components/ui/container.tsx';
import { Skeleton } from '../../../components/ui/skeleton.tsx';
import { cn } from '../../../lib/cn.ts';
import { usePageTitle } from '../../../lib/use-page-title.ts';
import { useSession } from '../../auth/session.ts';
import creativePortraitUrl from '../../../assets/illustrations/portrait-creative.svg';
import professionalPortraitUrl from '../../../assets/illustrations/portrait-professional.svg';
import socialPortraitUrl from '../../../assets/illustrations/portrait-social.svg';

const [headshots, avatars, social] = messages.landing.possibilities.items;

// Three looks of the same idea, fanned and overlapping like prints laid on a table.
const portraits = [
  {
    src: professionalPortraitUrl,
    alt: 'Illustrated professional headshot: a person in a dark suit against a soft grey studio backdrop',
    caption: headshots?.title,
    placement: 'w-[32%] -rotate-3 translate-y-3 md:w-[36%] md:-rotate-6 md:translate-y-8',
  },
  {
    src: creativePortraitUrl,
    alt: 'Illustrated creative portrait: a person wearing a golden crown in front of a sunset',
    caption: avatars?.title,
    placement: 'z-10 -mx-[3%] w-[38%] md:-mx-[6%] md:w-[40%] md:-translate-y-4',
  },
  {
    src: socialPortraitUrl,
    alt: 'Illustrated social media photo: a smiling person outdoors in a sunlit park',
    caption: social?.title,
    placement: 'w-[32%] rotate-3 translate-y-3 md:w-[36%] md:rotate-6 md:translate-y-8',
  },
] as const;

/**
 * The home page hero: what Likeness does and the one next step. The full landing page (how it
 * works, presets, pricing, demo) builds on this.
 */
export function HomePage() {
  usePageTitle(messages.pageTitles.home, { exact: true });
  const { status } = useSession();

  return (
    <section aria-labelledby="hero-title" className="relative isolate overflow-hidden">
      {/* Soft warm light behind the hero, like a studio lamp; purely decorative. */}
      <div
        aria-hidden="true"
        className="absolute inset-x-0 -top-40 -z-10 mx-auto h-[36rem] max-w-5xl rounded-full bg-[radial-gradient(closest-side,var(--color-accent-100),transparent)] opacity-80"
      />
      <Container className="grid items-center gap-14 pt-12 pb-20 md:grid-cols-[1.05fr_1fr] md:gap-12 md:pt-24 md:pb-32">
        <div className="flex flex-col items-start gap-6">
          <Badge variant="accent" size="md">
            <Sparkles aria-hidden="true" />
            {messages.landing.claims[3]}
          </Badge>
          <h1
            id="hero-title"
            className="text-4xl leading-[1.08] font-semibold text-neutral-950 md:text-5xl lg:text-6xl"
          >
            {messages.landing.heroTitle}
          </h1>
          <p className="max-w-xl text-lg leading-relaxed text-neutral-600">
            {messages.landing.heroSubtitle}
          </p>

          <div className="flex min-h-12 flex-wrap items-center gap-3">
            {status === 'loading' ? (
              // Same footprint as the button, so the page does not move when the session arrives.
              <Skeleton shape="pill" className="h-12 w-44" />
            ) : status === 'signed-in' ? (
              <Button asChild size="lg">
                <Link to={routes.dashboard}>
                  {messages.landing.pricing.goToDashboard}
                  <ArrowRight aria-hidden="true" className="size-4" />
                </Link>
              </Button>
            ) : (
              <Button asChild size="lg">
                <Link to={routes.signup}>
                  {messages.nav.getStarted}
                  <ArrowRight aria-hidden="true" className="size-4" />
                </Link>
              </Button>
            )}
          </div>

          <ul className="flex flex-wrap gap-x-5 gap-y-2 text-sm text-neutral-600">
            {messages.landing.claims
              .filter((_, index) => index !== 3)
              .map((claim) => (
                <li key={claim} className="inline-flex items-center gap-1.5">
                  <Check aria-hidden="true" className="size-4 text-accent-600" />
                  {claim}
                </li>
              ))}
          </ul>
        </div>

        <div className="mx-auto flex w-full max-w-md items-center justify-center py-4 md:max-w-none">
          {portraits.map((portrait, index) => (
            <figure
              key={portrait.src}
              className={cn(
                'relative shrink-0 overflow-hidden rounded-card bg-white p-1.5 shadow-lifted ring-1 ring-neutral-200/70 md:p-2',
                portrait.placement,
              )}
            >
              <Image
                src={portrait.src}
                alt={portrait.alt}
                width={400}
                height={500}
                loading="eager"
                fetchPriority={index === 1 ? 'high' : 'auto'}
                className="h-auto w-full rounded-[calc(var(--radius-card)-0.375rem)]"
              />
              {portrait.caption ? (
                <figcaption className="absolute inset-x-3 bottom-3 hidden truncate rounded-full bg-white/90 px-3 py-1.5 text-center text-xs font-medium text-neutral-800 backdrop-blur md:block">
                  {portrait.caption}
                </figcaption>
              ) : null}
            </figure>
          ))}
        </div>
      </Container>
    </section>
  );
}
