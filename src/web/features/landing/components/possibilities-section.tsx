import { Briefcase, Palette, Share2 } from 'lucide-react';
import { landingMessages } from '../../../../common/messages/landing.ts';
import { Container } from '../../../components/ui/container.tsx';
import { Skeleton } from '../../../components/ui/skeleton.tsx';
import { presetByKey, useLandingCatalog } from '../lib/landing-api.ts';
import { CatalogPhoto } from './catalog-photo.tsx';
import { SectionHeading } from './section-heading.tsx';
import { belowTheFold } from '../lib/below-the-fold.ts';
import { cn } from '../../../lib/cn.ts';

// Each use pictured by a look that fits it (by preset key; any preset stands in if missing).
const uses = [
  { icon: Briefcase, look: 'executive-portrait' },
  { icon: Palette, look: 'elven-royalty' },
  { icon: Share2, look: 'street-style' },
] as const;

/** Endless Possibilities: headshots, avatars, social media, each with a real example. */
export function PossibilitiesSection() {
  const { categories } = useLandingCatalog();
  return (
    <section
      aria-labelledby="possibilities-title"
      className={cn('bg-white py-16 md:py-24', belowTheFold)}
    >
      <Container>
        <SectionHeading id="possibilities-title" title={landingMessages.possibilities.title} />
        <ul className="mt-12 grid gap-6 md:grid-cols-3">
          {landingMessages.possibilities.items.map((item, index) => {
            const use = uses[index]!;
            const Icon = use.icon;
            const preset = presetByKey(categories, use.look, index * 7);
            return (
              <li
                key={item.title}
                className="group flex flex-col overflow-hidden rounded-card bg-neutral-50 ring-1 ring-neutral-200/70"
              >
                <div className="aspect-[4/3] overflow-hidden">
                  {preset ? (
                    <CatalogPhoto
                      image={preset.featuredImage}
                      sizes="(min-width: 768px) 360px, 90vw"
                      aspectRatio="4 / 3"
                      className="h-full w-full object-[50%_25%] transition-transform duration-500 group-hover:scale-[1.03]"
                    />
                  ) : (
                    <Skeleton className="h-full w-full rounded-none" />
                  )}
                </div>
                <div className="flex flex-col gap-2 p-6">
                  <h3 className="flex items-center gap-2 text-lg font-semibold text-neutral-950">
                    <Icon aria-hidden="true" className="size-5 text-accent-600" />
                    {item.title}
                  </h3>
                  <p className="text-sm leading-relaxed text-neutral-600">{item.text}</p>
                </div>
              </li>
            );
          })}
        </ul>
      </Container>
    </section>
  );
}
