import { useEffect, useRef, useState } from 'react';
import { CircleCheck, LoaderCircle } from 'lucide-react';
import { landingMessages } from '../../../../common/messages/landing.ts';
import { landing } from '../../../../common/product/landing.ts';
import { timings } from '../../../../common/product/timings.ts';
import { Container } from '../../../components/ui/container.tsx';
import { cn } from '../../../lib/cn.ts';
import { demoOriginal, demoResults } from '../lib/demo-pictures.ts';
import { useInView } from '../lib/use-in-view.ts';
import { useReducedMotion } from '../lib/use-reduced-motion.ts';
import { belowTheFold } from '../lib/below-the-fold.ts';
import { CatalogPhoto } from './catalog-photo.tsx';
import { SectionHeading } from './section-heading.tsx';

const prompts = landing.demoPrompts;

type Phase = 'typing' | 'generating' | 'revealing' | 'done';

interface DemoState {
  prompt: number;
  typed: number;
  phase: Phase;
}

const text = landingMessages.demo;
const initialState: DemoState = { prompt: 0, typed: 0, phase: 'typing' };

/**
 * The demo's script, `ms` later: type a character per tick, pause, reveal (one transition),
 * hold with the checkmark, then the next prompt from its first character.
 */
export function advanceDemo(
  state: DemoState & { elapsed: number },
  ms: number,
): DemoState & { elapsed: number } {
  const { typingMsPerChar, pauseMs, holdMs } = timings.demo;
  const elapsed = state.elapsed + ms;
  const prompt = prompts[state.prompt]!;
  switch (state.phase) {
    case 'typing': {
      const typed = Math.min(prompt.length, state.typed + Math.floor(elapsed / typingMsPerChar));
      if (typed < prompt.length) return { ...state, typed, elapsed: elapsed % typingMsPerChar };
      return { ...state, typed, phase: 'generating', elapsed: 0 };
    }
    case 'generating':
      return elapsed >= pauseMs
        ? { ...state, phase: 'revealing', elapsed: 0 }
        : { ...state, elapsed };
    case 'revealing':
      return elapsed >= timings.carousel.transitionMs
        ? { ...state, phase: 'done', elapsed: 0 }
        : { ...state, elapsed };
    case 'done':
      return elapsed >= holdMs
        ? { prompt: (state.prompt + 1) % prompts.length, typed: 0, phase: 'typing', elapsed: 0 }
        : { ...state, elapsed };
  }
}
const photoSizes = '(min-width: 768px) 260px, 44vw';

/** The page's last section (spec 01 §2): a prompt becoming a photo, from the first character. */
export function PromptDemoSection() {
  return (
    <section
      aria-labelledby="prompt-demo-title"
      className={cn('bg-neutral-50 py-16 md:py-24', belowTheFold)}
    >
      <Container size="sm" className="flex flex-col gap-10">
        <SectionHeading id="prompt-demo-title" title={text.title} />
        <PromptDemo />
      </Container>
    </section>
  );
}

/**
 * The prompt demo: types an example prompt, pauses as if generating, reveals the picture,
 * checks it off, holds, then the next prompt. Reduced motion shows the first one finished.
 */
export function PromptDemo() {
  const reducedMotion = useReducedMotion();
  const [state, setState] = useState<DemoState>(initialState);
  const box = useRef<HTMLDivElement>(null);
  const inView = useInView(box);

  useEffect(() => {
    if (reducedMotion || !inView) return;
    // One steady tick (a character's time) drives every phase: a timer per step would wait on
    // React's commit between steps and drift; the interval keeps the specified rhythm.
    const tickMs = timings.demo.typingMsPerChar;
    let current: DemoState & { elapsed: number } = { ...initialState, elapsed: 0 };
    const id = window.setInterval(() => {
      const next = advanceDemo(current, tickMs);
      if (next.phase !== current.phase || next.typed !== current.typed) {
        setState({ prompt: next.prompt, typed: next.typed, phase: next.phase });
      }
      current = next;
    }, tickMs);
    return () => window.clearInterval(id);
  }, [reducedMotion, inView]);

  const shown: DemoState = reducedMotion
    ? { prompt: 0, typed: prompts[0]!.length, phase: 'done' }
    : state;
  const prompt = prompts[shown.prompt]!;
  const result = demoResults[shown.prompt]!;
  const revealed = shown.phase === 'revealing' || shown.phase === 'done';

  return (
    <div
      ref={box}
      // Lets tests (and curious developers) see whether the demo is playing.
      data-running={inView && !reducedMotion}
      className="rounded-card bg-white p-3 shadow-lifted ring-1 ring-neutral-200/70 md:p-4"
      data-testid="prompt-demo"
    >
      <div className="grid grid-cols-2 gap-3">
        <figure className="flex flex-col gap-2">
          <div className="overflow-hidden rounded-xl bg-neutral-100">
            <CatalogPhoto
              image={demoOriginal}
              sizes={photoSizes}
              aspectRatio="4 / 5"
              className="h-auto w-full"
            />
          </div>
          <figcaption className="text-center text-sm font-medium text-neutral-600">
            {text.original}
          </figcaption>
        </figure>

        <figure className="flex flex-col gap-2">
          <div className="relative aspect-[4/5] overflow-hidden rounded-xl bg-gradient-to-br from-neutral-100 via-neutral-200 to-accent-100">
            <CatalogPhoto
              // Each prompt's picture is kept mounted by key so it fades in, not pops.
              key={result.id}
              image={result}
              sizes={photoSizes}
              aspectRatio="4 / 5"
              aria-hidden={revealed ? undefined : true}
              className={cn(
                'absolute inset-0 h-full w-full transition-[opacity,filter] ease-out',
                revealed ? 'opacity-100 blur-0' : 'opacity-0 blur-md',
              )}
              style={{ transitionDuration: `${timings.carousel.transitionMs}ms` }}
            />
            {shown.phase === 'generating' ? (
              <div className="absolute inset-0 flex items-center justify-center">
                <span className="inline-flex items-center gap-2 rounded-full bg-white/90 px-3 py-1.5 text-xs font-medium text-neutral-700 shadow-sm">
                  <LoaderCircle aria-hidden="true" className="size-3.5 animate-spin" />
                  {text.generating}
                </span>
              </div>
            ) : null}
          </div>
          <figcaption
            className={cn(
              'flex items-center justify-center gap-1.5 text-center text-sm font-medium text-success-700 transition-opacity',
              // Invisible, not removed: its line stays reserved, so nothing below moves.
              shown.phase === 'done' ? 'visible' : 'invisible',
            )}
          >
            <CircleCheck aria-hidden="true" className="size-4 shrink-0" />
            {text.generatedIn}
          </figcaption>
        </figure>
      </div>

      <div className="mt-3 rounded-xl bg-neutral-50 p-4 ring-1 ring-neutral-200">
        <p className="text-xs font-semibold tracking-[0.18em] text-neutral-500 uppercase">
          {text.promptLabel}
        </p>
        {/* The full prompt is reserved (invisible) under the typed part: the box never grows. */}
        <p className="relative mt-1.5 min-h-[3lh] text-base leading-relaxed text-neutral-900">
          <span className="invisible" aria-hidden="true">
            {prompt}
          </span>
          <span className="absolute inset-0" data-testid="demo-prompt">
            {prompt.slice(0, shown.typed)}
            {shown.phase === 'typing' ? (
              <span
                aria-hidden="true"
                className="ml-0.5 inline-block h-[1.1em] w-0.5 translate-y-[0.2em] bg-accent-600"
              />
            ) : null}
          </span>
        </p>
      </div>
    </div>
  );
}
