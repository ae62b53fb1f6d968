import { useEffect, useState } from 'react';
import { Sparkles } from 'lucide-react';
import { landingMessages } from '../../../../common/messages/landing.ts';
import { landing } from '../../../../common/product/landing.ts';
import { timings } from '../../../../common/product/timings.ts';
import { Container } from '../../../components/ui/container.tsx';
import { Skeleton } from '../../../components/ui/skeleton.tsx';
import { cn } from '../../../lib/cn.ts';
import { demoResults, type DemoPicture } from '../lib/demo-pictures.ts';
import { useGoodExamplePhotos } from '../lib/landing-api.ts';
import { useReducedMotion } from '../lib/use-reduced-motion.ts';
import { CatalogPhoto } from './catalog-photo.tsx';
import { SectionHeading } from './section-heading.tsx';
import { belowTheFold } from '../lib/below-the-fold.ts';

const [uploadStep, trainingStep, generateStep] = landingMessages.howItWorks.steps;
const thumbSizes = '(min-width: 768px) 170px, 45vw';
const stepImageSizes = '(min-width: 768px) 340px, 90vw';

/**
 * Upload, training, results: each step shown with real pictures, not icons. The selfies of
 * step 1 (the guidelines' good examples) and the pictures of step 3 are the same person.
 */
export function HowItWorksSection() {
  const { photos } = useGoodExamplePhotos();
  const results = demoResults.slice(0, landing.stepThreeImageCount);
  const selfie = photos[0];

  return (
    <section aria-labelledby="how-it-works-title" className={cn('py-16 md:py-24', belowTheFold)}>
      <Container>
        <SectionHeading id="how-it-works-title" title={landingMessages.howItWorks.title} />
        <ol className="mt-12 grid gap-6 md:grid-cols-3">
          <StepCard number={1} title={uploadStep!.title} text={uploadStep!.text}>
            <div className="grid h-full grid-cols-2 gap-1.5">
              {photos.length
                ? photos
                    .slice(0, 4)
                    .map((photo) => (
                      <CatalogPhoto
                        key={photo.id}
                        image={photo.image}
                        sizes={thumbSizes}
                        aspectRatio="1 / 1"
                        className="h-full w-full rounded-lg"
                      />
                    ))
                : [0, 1, 2, 3].map((key) => <Skeleton key={key} className="h-full w-full" />)}
            </div>
          </StepCard>

          <StepCard number={2} title={trainingStep!.title} text={trainingStep!.text}>
            <div className="relative h-full overflow-hidden rounded-lg bg-neutral-200">
              {selfie ? (
                <CatalogPhoto
                  image={selfie.image}
                  sizes={stepImageSizes}
                  aspectRatio="4 / 3"
                  className="h-full w-full scale-105 blur-[2px] saturate-50"
                />
              ) : null}
              {/* A still of training in progress: decorative, the text says what happens. */}
              <div className="absolute inset-x-4 bottom-4 rounded-xl bg-white/90 p-3 shadow-card backdrop-blur">
                <p className="flex items-center gap-2 text-xs font-medium text-neutral-800">
                  <Sparkles aria-hidden="true" className="size-3.5 text-accent-600" />
                  {landingMessages.trainingLabel}
                </p>
                <div aria-hidden="true" className="mt-2 h-1.5 rounded-full bg-neutral-200">
                  <div className="h-full w-2/3 rounded-full bg-accent-600" />
                </div>
              </div>
            </div>
          </StepCard>

          <StepCard number={3} title={generateStep!.title} text={generateStep!.text}>
            <RotatingResults images={results} />
          </StepCard>
        </ol>
      </Container>
    </section>
  );
}

function StepCard({
  number,
  title,
  text,
  children,
}: {
  number: number;
  title: string;
  text: string;
  children: React.ReactNode;
}) {
  return (
    <li className="flex flex-col overflow-hidden rounded-card bg-white p-2 shadow-card ring-1 ring-neutral-200/70">
      <div className="aspect-[4/3] overflow-hidden rounded-[calc(var(--radius-card)-0.5rem)]">
        {children}
      </div>
      <div className="flex flex-col gap-2 p-4 pt-5">
        <p className="text-xs font-semibold tracking-[0.18em] text-accent-700 uppercase">
          {landingMessages.stepLabel(number)}
        </p>
        <h3 className="text-lg font-semibold text-neutral-950">{title}</h3>
        <p className="text-sm leading-relaxed text-neutral-600">{text}</p>
      </div>
    </li>
  );
}

/** Step 3's pictures, one after another: every look stays mounted, so changing is a fade. */
function RotatingResults({ images }: { images: DemoPicture[] }) {
  const reducedMotion = useReducedMotion();
  const [active, setActive] = useState(0);
  const count = images.length;

  useEffect(() => {
    if (reducedMotion || count < 2) return;
    const id = window.setInterval(
      () => setActive((current) => (current + 1) % count),
      timings.stepThreeRotationMs,
    );
    return () => window.clearInterval(id);
  }, [reducedMotion, count]);

  return (
    <div className="relative h-full" data-testid="step-three-images">
      {images.map((image, imageIndex) => {
        const shown = imageIndex === active % count;
        return (
          <CatalogPhoto
            key={image.id}
            image={image}
            sizes={stepImageSizes}
            aspectRatio="4 / 3"
            aria-hidden={shown ? undefined : true}
            data-active={shown || undefined}
            className={cn(
              'absolute inset-0 h-full w-full rounded-lg object-[50%_25%] transition-opacity ease-out',
              shown ? 'opacity-100' : 'opacity-0',
            )}
            style={{ transitionDuration: `${timings.carousel.transitionMs}ms` }}
          />
        );
      })}
    </div>
  );
}
