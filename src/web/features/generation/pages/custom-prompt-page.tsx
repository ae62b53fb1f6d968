import { pageTitleMessages } from '../../../../common/messages/shell.ts';
import { Container } from '../../../components/ui/container.tsx';
import { usePageTitle } from '../../../lib/use-page-title.ts';
import { CustomGenerationPanel } from '../components/custom-generation-panel.tsx';

/** /custom-prompt: the custom image generation panel on a page of its own. */
export function CustomPromptPage() {
  usePageTitle(pageTitleMessages.customPrompt);
  return (
    <Container className="flex flex-col gap-8 py-8 md:py-12">
      <CustomGenerationPanel headingLevel="h1" />
    </Container>
  );
}
