import { useEffect, useRef, useState } from 'react';
import { Navigate, useLocation, useNavigate } from 'react-router';
import { pageTitleMessages } from '../../../../common/messages/shell.ts';
import { routes } from '../../../../common/product/routes.ts';
import { Container } from '../../../components/ui/container.tsx';
import { usePageTitle } from '../../../lib/use-page-title.ts';
import { OfferStage } from '../components/offer-stage.tsx';
import { ResultsSummary } from '../components/results-summary.tsx';
import { SalesStage } from '../components/sales-stage.tsx';
import { readQuizScore } from '../quiz-logic.ts';

type Stage = 'summary' | 'sales' | 'offer';
const stages: readonly Stage[] = ['summary', 'sales', 'offer'];

/** The stage lives in the history entry, so Back returns to the previous stage, not the quiz. */
function stageOf(state: unknown): Stage {
  const stage = (state as { quizStage?: unknown } | null)?.quizStage;
  return stages.includes(stage as Stage) ? (stage as Stage) : 'summary';
}

/** /quiz-results: the score, then the sales text, then the yearly offer. Public. */
export function QuizResultsPage() {
  usePageTitle(pageTitleMessages.quizResults);
  const location = useLocation();
  const navigate = useNavigate();
  // Read once: the score does not change while the page is open.
  const [score] = useState(readQuizScore);
  const stage = stageOf(location.state);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const firstStage = useRef(stage);

  // Each stage is a new page to the reader: start at its top, and move focus to its heading
  // (not on arrival, where the browser's own focus handling is right).
  useEffect(() => {
    if (stage === firstStage.current) return;
    firstStage.current = stage;
    window.scrollTo(0, 0);
    headingRef.current?.focus();
  }, [stage]);

  if (!score) return <Navigate to={routes.quiz} replace />;

  const goTo = (next: Stage) => void navigate(routes.quizResults, { state: { quizStage: next } });

  return (
    <Container size="sm" className="flex flex-1 flex-col py-8 md:py-14">
      <div key={stage} className="animate-fade-in" data-results-stage={stage}>
        {stage === 'summary' ? (
          <ResultsSummary score={score} headingRef={headingRef} onContinue={() => goTo('sales')} />
        ) : null}
        {stage === 'sales' ? (
          <SalesStage headingRef={headingRef} onContinue={() => goTo('offer')} />
        ) : null}
        {stage === 'offer' ? <OfferStage headingRef={headingRef} /> : null}
      </div>
    </Container>
  );
}
