import { WandSparkles } from 'lucide-react';
import { landingMessages } from '../../../../common/messages/landing.ts';
import { Container } from '../../../components/ui/container.tsx';
import { SectionHeading } from './section-heading.tsx';
import { SessionCta } from './session-cta.tsx';
import { belowTheFold } from '../lib/below-the-fold.ts';
import { cn } from '../../../lib/cn.ts';

/** Beyond presets: write any scenario. The prompt demo at the end of the page shows it at work. */
export function CustomScenarioSection() {
  return (
    <section aria-labelledby="custom-scenario-title" className={cn('py-16 md:py-24', belowTheFold)}>
      <Container size="md" className="flex flex-col items-center gap-6 text-center">
        <span className="inline-flex size-12 items-center justify-center rounded-2xl bg-accent-50 text-accent-700 ring-1 ring-accent-200">
          <WandSparkles aria-hidden="true" className="size-6" />
        </span>
        <SectionHeading
          id="custom-scenario-title"
          title={landingMessages.customScenario.title}
          subtitle={landingMessages.customScenario.subtitle}
        />
        <SessionCta variant="secondary" arrow />
      </Container>
    </section>
  );
}
