import { useEffect, useReducer, useRef, type RefObject } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { CircleCheck, CircleX, ScanFace, Sparkles } from 'lucide-react';
import type { QuizImage } from '../../../../common/api/catalog.ts';
import { quizMessages } from '../../../../common/messages/quiz.ts';
import { commonMessages, pageTitleMessages } from '../../../../common/messages/shell.ts';
import { quiz } from '../../../../common/product/quiz.ts';
import { routes } from '../../../../common/product/routes.ts';
import { Image } from '../../../components/image.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Card } from '../../../components/ui/card.tsx';
import { Container } from '../../../components/ui/container.tsx';
import { FormAlert } from '../../../components/ui/form-alert.tsx';
import { Progress } from '../../../components/ui/progress.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { cn } from '../../../lib/cn.ts';
import { usePageTitle } from '../../../lib/use-page-title.ts';
import { quizImagesQueryOptions } from '../quiz-api.ts';
import { makeQuizScore, saveQuizScore, shuffled, type QuizScore } from '../quiz-logic.ts';
import { quizImageSizes, usePreloadedImages } from '../use-preloaded-images.ts';
import { StageHeading } from '../components/stage-heading.tsx';

const text = quizMessages;

interface Answer {
  saidAi: boolean;
  correct: boolean;
}

type QuizState =
  | { phase: 'intro' }
  | {
      phase: 'running';
      order: QuizImage[];
      index: number;
      correct: number;
      answered: number;
      /** The answer to the current question while its result shows; null while waiting. */
      answer: Answer | null;
    }
  | { phase: 'complete'; score: QuizScore };

type QuizAction =
  | { type: 'start'; images: readonly QuizImage[] }
  | { type: 'answer'; saidAi: boolean }
  | { type: 'next' };

function reducer(state: QuizState, action: QuizAction): QuizState {
  switch (action.type) {
    case 'start':
      // A new order at every start, so a retake is a new quiz.
      return {
        phase: 'running',
        order: shuffled(action.images),
        index: 0,
        correct: 0,
        answered: 0,
        answer: null,
      };
    case 'answer': {
      // One answer per question: a second click or key press while the result shows is ignored.
      if (state.phase !== 'running' || state.answer) return state;
      const correct = action.saidAi === state.order[state.index]!.isAi;
      return {
        ...state,
        answer: { saidAi: action.saidAi, correct },
        answered: state.answered + 1,
        correct: state.correct + (correct ? 1 : 0),
      };
    }
    case 'next':
      if (state.phase !== 'running' || !state.answer) return state;
      if (state.index + 1 >= state.order.length)
        return { phase: 'complete', score: makeQuizScore(state.correct, state.answered) };
      return { ...state, index: state.index + 1, answer: null };
  }
}

/** /quiz: "real or AI?", sixteen pictures in a new random order each time. Public. */
export function QuizPage() {
  usePageTitle(pageTitleMessages.quiz);
  const navigate = useNavigate();
  const imagesQuery = useQuery(quizImagesQueryOptions());
  const images = imagesQuery.data?.images;
  const [state, dispatch] = useReducer(reducer, { phase: 'intro' });
  const { decodeEarly } = usePreloadedImages(images);
  const headingRef = useRef<HTMLHeadingElement>(null);

  // The result of an answer shows for 1.5 s, then the next question (or the end) follows.
  const showingAnswer = state.phase === 'running' && state.answer !== null;
  useEffect(() => {
    if (!showingAnswer) return;
    const timer = setTimeout(() => dispatch({ type: 'next' }), quiz.answerPauseMs);
    return () => clearTimeout(timer);
  }, [showingAnswer]);

  // Finished: the score is kept for the results page, which opens 2 s later.
  const finalScore = state.phase === 'complete' ? state.score : null;
  useEffect(() => {
    if (!finalScore) return;
    saveQuizScore(finalScore);
    const timer = setTimeout(() => void navigate(routes.quizResults), quiz.redirectDelayMs);
    return () => clearTimeout(timer);
  }, [finalScore, navigate]);

  // The picture after this one is decoded while this one is answered, so it appears at once.
  const nextImageId = state.phase === 'running' ? state.order[state.index + 1]?.id : undefined;
  useEffect(() => decodeEarly(nextImageId), [decodeEarly, nextImageId]);

  // A new phase replaces what had focus (the Start button): screen readers and keyboards
  // continue from its heading instead of the top of the document.
  useEffect(() => {
    if (state.phase !== 'intro') headingRef.current?.focus();
  }, [state.phase]);

  // R and A answer without reaching for the buttons; ignored with modifiers (browser shortcuts).
  const waitingForAnswer = state.phase === 'running' && state.answer === null;
  useEffect(() => {
    if (!waitingForAnswer) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.altKey || event.ctrlKey || event.metaKey || event.repeat) return;
      const target = event.target as HTMLElement | null;
      if (target?.closest('input, textarea, select, [contenteditable="true"]')) return;
      const key = event.key.toLowerCase();
      if (key === 'r') dispatch({ type: 'answer', saidAi: false });
      else if (key === 'a') dispatch({ type: 'answer', saidAi: true });
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, [waitingForAnswer]);

  return (
    <Container size="sm" className="flex flex-1 flex-col py-8 md:py-14">
      {state.phase === 'intro' ? (
        <QuizIntro
          loading={imagesQuery.isPending}
          failed={imagesQuery.isError}
          empty={images?.length === 0}
          onRetry={() => void imagesQuery.refetch()}
          onStart={() => images?.length && dispatch({ type: 'start', images })}
        />
      ) : null}

      {state.phase === 'running' ? (
        <QuizQuestion
          headingRef={headingRef}
          image={state.order[state.index]!}
          number={state.index + 1}
          count={state.order.length}
          correct={state.correct}
          answered={state.answered}
          answer={state.answer}
          onAnswer={(saidAi) => dispatch({ type: 'answer', saidAi })}
        />
      ) : null}

      {state.phase === 'complete' ? (
        <div className="flex flex-1 flex-col items-center justify-center gap-4 py-16 text-center">
          <div className="flex size-16 items-center justify-center rounded-full bg-accent-50 text-accent-700">
            <Sparkles aria-hidden="true" className="size-7" />
          </div>
          <StageHeading headingRef={headingRef} size="lg">
            {text.complete}
          </StageHeading>
          <p className="flex items-center gap-2 text-neutral-600" role="status">
            <Spinner size="sm" />
            {text.redirecting}
          </p>
        </div>
      ) : null}
    </Container>
  );
}

interface QuizIntroProps {
  loading: boolean;
  failed: boolean;
  empty: boolean;
  onRetry: () => void;
  onStart: () => void;
}

function QuizIntro({ loading, failed, empty, onRetry, onStart }: QuizIntroProps) {
  return (
    <Card className="flex flex-col items-center gap-6 px-6 py-12 text-center md:px-12 md:py-16">
      <div className="flex size-16 items-center justify-center rounded-full bg-accent-50 text-accent-700">
        <ScanFace aria-hidden="true" className="size-8" />
      </div>
      <div className="flex max-w-md flex-col gap-3">
        <h1 className="text-3xl font-semibold text-neutral-950 md:text-4xl">{text.introTitle}</h1>
        <p className="text-base leading-relaxed text-neutral-600">{text.introText}</p>
      </div>
      {failed || empty ? (
        <div className="flex w-full max-w-md flex-col items-center gap-4">
          <FormAlert>{text.loadFailed}</FormAlert>
          <Button variant="outline" onClick={onRetry}>
            {commonMessages.tryAgain}
          </Button>
        </div>
      ) : (
        // Enabled once the pictures are known, so the first question can show at once.
        <Button size="lg" loading={loading} onClick={onStart} className="min-w-48">
          {text.start}
        </Button>
      )}
    </Card>
  );
}

interface QuizQuestionProps {
  headingRef: RefObject<HTMLHeadingElement | null>;
  image: QuizImage;
  number: number;
  count: number;
  correct: number;
  answered: number;
  answer: Answer | null;
  onAnswer: (saidAi: boolean) => void;
}

function QuizQuestion({
  headingRef,
  image,
  number,
  count,
  correct,
  answered,
  answer,
  onAnswer,
}: QuizQuestionProps) {
  const progress = text.progress(number, count);
  return (
    <div className="flex flex-col gap-5 md:gap-6">
      <div className="flex flex-col gap-3">
        <div className="flex items-center justify-between gap-4 text-sm font-medium">
          <p className="text-neutral-600">{progress}</p>
          <p role="status" className="text-neutral-900 tabular-nums">
            {text.score(correct, answered)}
          </p>
        </div>
        <Progress value={answered} max={count} label={progress} />
      </div>

      <StageHeading headingRef={headingRef} size="md" className="text-center">
        {text.question}
      </StageHeading>

      {/* Width bounded by the screen's height too, so the answer buttons stay in view. */}
      <figure
        data-quiz-image-id={image.id}
        className="relative mx-auto w-full max-w-[min(26rem,calc((100dvh-21rem)*0.8))] min-w-56"
      >
        <Image
          // A new element per picture: the previous one never lingers while the next decodes.
          key={image.id}
          src={image.src}
          srcSet={image.srcset || undefined}
          sizes={quizImageSizes}
          alt={text.imageAlt(number)}
          width={image.width}
          height={image.height}
          loading="eager"
          fetchPriority="high"
          className="w-full rounded-card bg-neutral-200 shadow-card"
        />
        <div aria-live="polite" className="absolute inset-x-3 bottom-3">
          {answer ? <AnswerResult answer={answer} isAi={image.isAi} /> : null}
        </div>
      </figure>

      <div
        role="group"
        aria-label={text.answerGroupLabel}
        className="mx-auto grid w-full max-w-md grid-cols-2 gap-3"
      >
        <AnswerButton
          label={text.answerReal}
          shortcut="R"
          isThisAnswerAi={false}
          image={image}
          answer={answer}
          onAnswer={onAnswer}
        />
        <AnswerButton
          label={text.answerAi}
          shortcut="A"
          isThisAnswerAi
          image={image}
          answer={answer}
          onAnswer={onAnswer}
        />
      </div>
      <p className="text-center text-xs text-neutral-500 max-md:hidden">{text.shortcutHint}</p>
    </div>
  );
}

function AnswerResult({ answer, isAi }: { answer: Answer; isAi: boolean }) {
  const Icon = answer.correct ? CircleCheck : CircleX;
  return (
    <div
      data-answer-result={answer.correct ? 'correct' : 'incorrect'}
      className={cn(
        'flex animate-fade-in items-center gap-3 rounded-xl border bg-white/95 px-4 py-3 shadow-card backdrop-blur-sm',
        answer.correct ? 'border-success-100' : 'border-danger-100',
      )}
    >
      <Icon
        aria-hidden="true"
        className={cn('size-6 shrink-0', answer.correct ? 'text-success-600' : 'text-danger-600')}
      />
      <p className="flex flex-col text-left text-sm leading-snug">
        <span className="font-semibold text-neutral-950">
          {answer.correct ? text.correct : text.incorrect}
        </span>
        <span className="text-neutral-700">{isAi ? text.revealAi : text.revealReal}</span>
      </p>
    </div>
  );
}

interface AnswerButtonProps {
  label: string;
  shortcut: string;
  isThisAnswerAi: boolean;
  image: QuizImage;
  answer: Answer | null;
  onAnswer: (saidAi: boolean) => void;
}

function AnswerButton({
  label,
  shortcut,
  isThisAnswerAi,
  image,
  answer,
  onAnswer,
}: AnswerButtonProps) {
  const chosen = answer?.saidAi === isThisAnswerAi;
  const isTruth = image.isAi === isThisAnswerAi;
  // After an answer: the true answer turns green, a wrong choice red, the other one fades.
  const result = !answer ? undefined : isTruth ? 'truth' : chosen ? 'wrong' : 'other';
  return (
    <Button
      variant="outline"
      size="lg"
      aria-keyshortcuts={shortcut}
      aria-pressed={answer ? chosen : undefined}
      // aria-disabled, not disabled: the button keeps keyboard focus through the pause, so the
      // next question is answered from where the last one was.
      aria-disabled={answer ? true : undefined}
      data-result={result}
      onClick={() => onAnswer(isThisAnswerAi)}
      // Variant utilities (data-*), which Tailwind emits after the plain and hover ones, so
      // they win over the outline look without a class-merging library (see cn.ts).
      className={cn(
        'w-full',
        'data-[result=truth]:border-success-600 data-[result=truth]:bg-success-50 data-[result=truth]:text-success-700 data-[result=truth]:opacity-100',
        'data-[result=wrong]:border-danger-600 data-[result=wrong]:bg-danger-50 data-[result=wrong]:text-danger-700 data-[result=wrong]:opacity-100',
        'data-[result=other]:opacity-60',
      )}
    >
      {label}
    </Button>
  );
}
