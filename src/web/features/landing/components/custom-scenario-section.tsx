import { WandSparkles } from 'lucide-react';
import { landingMessages } from '../../../../common/messages/landing.ts';
import { Container } from '../../../components/ui/container.tsx';
import { PromptDemo } from './prompt-demo.tsx';
import { SectionHeading } from './section-heading.tsx';
import { SessionCta } from './session-cta.tsx';
import { belowTheFold } from '../lib/below-the-fold.ts';
import { cn } from '../../../lib/cn.ts';

/** Beyond presets: write any scenario. The demo beside it shows a prompt becoming a photo. */
export function CustomScenarioSection() {
  return (
    <section aria-labelledby="custom-scenario-title" className={cn('py-16 md:py-24', belowTheFold)}>
      <Container className="grid items-center gap-10 md:grid-cols-[0.9fr_1.1fr] md:gap-16">
        <div className="flex flex-col items-start gap-6">
          <span className="inline-flex size-12 items-center justify-center rounded-2xl bg-accent-50 text-accent-700 ring-1 ring-accent-200">
            <WandSparkles aria-hidden="true" className="size-6" />
          </span>
          <SectionHeading
            id="custom-scenario-title"
            align="start"
            eyebrow={landingMessages.demo.title}
            title={landingMessages.customScenario.title}
            subtitle={landingMessages.customScenario.subtitle}
          />
          <SessionCta variant="secondary" arrow />
        </div>
        <PromptDemo />
      </Container>
    </section>
  );
}
