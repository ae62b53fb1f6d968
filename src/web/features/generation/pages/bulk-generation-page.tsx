import type { ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useParams } from 'react-router';
import { bulkMessages } from '../../../../common/messages/generation.ts';
import { pageTitleMessages } from '../../../../common/messages/shell.ts';
import { Container } from '../../../components/ui/container.tsx';
import { usePageTitle } from '../../../lib/use-page-title.ts';
import { BulkJobView } from '../components/bulk-job-view.tsx';
import { BackToGenerated, DetailSkeleton, Problem } from '../components/detail-parts.tsx';
import { bulkJobQueryOptions, isNotFound } from '../generation-api.ts';
import { isValidRecordId } from '../generation-rules.ts';

const text = bulkMessages;

/**
 * /bulk-generation/{id}: a bulk job's progress and images, live. A malformed id is refused at
 * once (Invalid bulk generation ID); an unknown one (or another user's) is Job not found.
 */
export function BulkGenerationPage() {
  const { id } = useParams();
  const valid = isValidRecordId(id);
  const query = useQuery({ ...bulkJobQueryOptions(id ?? ''), enabled: valid });
  usePageTitle(query.data?.bulkJob.label ?? pageTitleMessages.bulkGeneration);

  let body: ReactNode;
  if (!valid) body = <Problem title={text.invalidId} />;
  else if (query.isPending) body = <DetailSkeleton />;
  else if (query.isError)
    body = isNotFound(query.error) ? (
      <Problem title={text.notFound} />
    ) : (
      <Problem
        title={text.loadFailed}
        description={query.error.message}
        onRetry={() => void query.refetch()}
      />
    );
  else body = <BulkJobView detail={query.data} />;

  return (
    <Container className="flex flex-col gap-6 py-8 md:py-12">
      <BackToGenerated />
      {body}
    </Container>
  );
}
