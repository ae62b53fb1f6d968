import { Layers, LayoutGrid } from 'lucide-react';
import { bulkMessages, generationMessages } from '../../../../common/messages/generation.ts';
import { pageTitleMessages } from '../../../../common/messages/shell.ts';
import { routes } from '../../../../common/product/routes.ts';
import { ButtonLink } from '../../../components/button-link.tsx';
import { Container } from '../../../components/ui/container.tsx';
import { EmptyState } from '../../../components/ui/empty-state.tsx';
import { usePageTitle } from '../../../lib/use-page-title.ts';

/**
 * /bulk-generate: the specification's placeholder. Bulk generation itself starts from a
 * category's multi-select (or several models in the custom panel), so this page points there.
 */
export function BulkGeneratePage() {
  usePageTitle(pageTitleMessages.bulkGenerate);
  return (
    <Container className="flex flex-col gap-8 py-8 md:py-12">
      <h1 className="text-3xl font-semibold text-neutral-950 md:text-4xl">
        {bulkMessages.comingSoonTitle}
      </h1>
      <EmptyState
        icon={<Layers aria-hidden="true" />}
        title={bulkMessages.comingSoon}
        action={
          <ButtonLink to={routes.dashboard} icon={LayoutGrid} variant="outline">
            {generationMessages.history.browsePresets}
          </ButtonLink>
        }
      />
    </Container>
  );
}
