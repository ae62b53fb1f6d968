import { pageTitleMessages } from '../../../../common/messages/shell.ts';
import { usePageTitle } from '../../../lib/use-page-title.ts';
import { ClosingCtaSection } from '../components/closing-cta-section.tsx';
import { CustomScenarioSection } from '../components/custom-scenario-section.tsx';
import { ExamplesCarouselSection } from '../components/examples-carousel-section.tsx';
import { HeroSection } from '../components/hero-section.tsx';
import { HowItWorksSection } from '../components/how-it-works-section.tsx';
import { PossibilitiesSection } from '../components/possibilities-section.tsx';
import { PresetShowcaseSection } from '../components/preset-showcase-section.tsx';
import { PricingSection } from '../components/pricing-section.tsx';
import { PromptDemoSection } from '../components/prompt-demo.tsx';

/**
 * The landing page, its sections in the specification's order (spec 01 §2): what is it, how
 * does it work, what can I look like, can I ask for anything, what is it for, what does it cost,
 * the way in, then what others have made and a prompt becoming a photo for those who read on.
 * Every section reads the same two cached catalog requests.
 */
export function HomePage() {
  usePageTitle(pageTitleMessages.home, { exact: true });
  return (
    <>
      <HeroSection />
      <HowItWorksSection />
      <PresetShowcaseSection />
      <CustomScenarioSection />
      <PossibilitiesSection />
      <PricingSection />
      <ClosingCtaSection />
      <ExamplesCarouselSection />
      <PromptDemoSection />
    </>
  );
}
