import type { RefObject } from 'react';
import { useQuery } from '@tanstack/react-query';
import { ArrowRight } from 'lucide-react';
import { quizMessages } from '../../../../common/messages/quiz.ts';
import { Image } from '../../../components/image.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Card } from '../../../components/ui/card.tsx';
import { quizImagesQueryOptions } from '../quiz-api.ts';
import { StageHeading } from './stage-heading.tsx';

const text = quizMessages.results;
const showcaseCount = 3;

interface SalesStageProps {
  headingRef: RefObject<HTMLHeadingElement | null>;
  onContinue: () => void;
}

/**
 * Stage 2 of the results: why it matters. The quiz's own AI pictures (already cached from the
 * quiz) show what the technology makes; the answers are no secret once the quiz is over.
 */
export function SalesStage({ headingRef, onContinue }: SalesStageProps) {
  const { data } = useQuery(quizImagesQueryOptions());
  const showcase = data?.images.filter((image) => image.isAi).slice(0, showcaseCount) ?? [];

  return (
    <Card className="flex flex-col gap-8 px-6 py-10 md:px-12 md:py-14">
      <div className="flex flex-col gap-4 text-center">
        <StageHeading headingRef={headingRef} size="md">
          {text.salesTitle}
        </StageHeading>
        {text.salesText.map((paragraph) => (
          <p key={paragraph} className="text-base leading-relaxed text-neutral-600">
            {paragraph}
          </p>
        ))}
      </div>

      {/* Room kept for the pictures whether or not they have arrived: nothing jumps. */}
      <ul className="grid grid-cols-3 gap-3" aria-hidden={showcase.length === 0 || undefined}>
        {Array.from({ length: showcaseCount }, (_, index) => {
          const image = showcase[index];
          return (
            <li key={image?.id ?? index} className="aspect-[4/5] overflow-hidden rounded-card">
              {image ? (
                <Image
                  src={image.src}
                  srcSet={image.srcset || undefined}
                  sizes="(min-width: 768px) 200px, 30vw"
                  alt={text.showcaseAlt}
                  width={image.width}
                  height={image.height}
                  className="size-full bg-neutral-200"
                />
              ) : (
                <div className="size-full bg-neutral-100" />
              )}
            </li>
          );
        })}
      </ul>

      <Button size="lg" onClick={onContinue} className="self-center tracking-wide">
        {text.startCreatingUpper}
        <ArrowRight aria-hidden="true" className="size-4" />
      </Button>
    </Card>
  );
}
