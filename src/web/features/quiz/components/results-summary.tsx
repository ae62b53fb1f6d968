import type { RefObject } from 'react';
import { ArrowRight, RotateCcw } from 'lucide-react';
import { quizMessages } from '../../../../common/messages/quiz.ts';
import { quizFeedbackLevel } from '../../../../common/product/quiz.ts';
import { routes } from '../../../../common/product/routes.ts';
import { ButtonLink } from '../../../components/button-link.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Card } from '../../../components/ui/card.tsx';
import type { QuizScore } from '../quiz-logic.ts';
import { StageHeading } from './stage-heading.tsx';

const text = quizMessages.results;
const ringRadius = 52;
const ringLength = 2 * Math.PI * ringRadius;

interface ResultsSummaryProps {
  score: QuizScore;
  headingRef: RefObject<HTMLHeadingElement | null>;
  onContinue: () => void;
}

/** Stage 1 of the results: the score, what it means, and the way on. */
export function ResultsSummary({ score, headingRef, onContinue }: ResultsSummaryProps) {
  const level = quizFeedbackLevel(score.percentage);
  return (
    <Card className="flex flex-col items-center gap-6 px-6 py-10 text-center md:px-12 md:py-14">
      <StageHeading headingRef={headingRef} size="md">
        {text.title}
      </StageHeading>

      <div className="relative size-40 md:size-44">
        <svg viewBox="0 0 120 120" aria-hidden="true" className="size-full -rotate-90">
          <circle
            cx="60"
            cy="60"
            r={ringRadius}
            className="fill-none stroke-neutral-200 stroke-8"
          />
          <circle
            cx="60"
            cy="60"
            r={ringRadius}
            className="fill-none stroke-accent-600 stroke-8"
            strokeLinecap="round"
            strokeDasharray={ringLength}
            strokeDashoffset={ringLength * (1 - score.percentage / 100)}
          />
        </svg>
        <div className="absolute inset-0 flex flex-col items-center justify-center">
          <p
            data-testid="quiz-percentage"
            className="text-4xl font-semibold tracking-tight text-neutral-950 tabular-nums md:text-5xl"
          >
            {text.accuracy(score.percentage)}
          </p>
          <p className="text-xs font-medium tracking-wide text-neutral-500 uppercase">
            {text.accuracyLabel}
          </p>
        </div>
      </div>

      <p className="text-lg font-medium text-neutral-900">
        {text.outOf(score.correct, score.total)}
      </p>
      <p
        data-feedback-level={level}
        className="max-w-md text-base leading-relaxed text-neutral-600"
      >
        {text.feedback[level]}
      </p>

      <div className="flex flex-col items-center gap-3">
        {/* Wraps on narrow phones instead of overflowing the card: the label's own span may
            wrap (buttons are nowrap) and max-md: utilities win over the fixed height. */}
        <Button
          size="lg"
          onClick={onContinue}
          className="max-w-full max-md:h-auto max-md:min-h-12 max-md:py-3"
        >
          <span className="text-center whitespace-normal">{text.learnMore}</span>
          <ArrowRight aria-hidden="true" className="size-4" />
        </Button>
        <ButtonLink to={routes.quiz} icon={RotateCcw} variant="ghost" size="sm">
          {text.retake}
        </ButtonLink>
      </div>
    </Card>
  );
}
