import { Link } from 'react-router';
import { generationMessages } from '../../../../common/messages/generation.ts';
import { commonMessages } from '../../../../common/messages/shell.ts';
import { BackLink } from '../../../components/back-link.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { EmptyState } from '../../../components/ui/empty-state.tsx';
import { Skeleton, SkeletonGroup } from '../../../components/ui/skeleton.tsx';
import { generatedTabPath } from '../generation-rules.ts';

/** The detail pages while their record loads, in their final shape. */
export function DetailSkeleton() {
  return (
    <SkeletonGroup className="grid gap-8 md:grid-cols-2 md:gap-12">
      <Skeleton shape="card" className="aspect-[4/5] w-full" />
      <div className="flex flex-col gap-4">
        <Skeleton className="h-10 w-3/4" />
        <Skeleton className="h-5 w-1/3" />
        <Skeleton className="h-24 w-full" />
        <Skeleton shape="pill" className="h-11 w-40" />
      </div>
    </SkeletonGroup>
  );
}

export function BackToGenerated() {
  return <BackLink to={generatedTabPath}>{generationMessages.detail.back}</BackLink>;
}

/** What a detail page shows instead of its record: the reason, and a way on. */
export function Problem({
  title,
  description,
  onRetry,
}: {
  title: string;
  description?: string;
  onRetry?: () => void;
}) {
  return (
    <EmptyState
      title={<span role="alert">{title}</span>}
      description={description}
      action={
        onRetry ? (
          <Button variant="outline" onClick={onRetry}>
            {commonMessages.tryAgain}
          </Button>
        ) : (
          <Button asChild variant="outline">
            <Link to={generatedTabPath}>{commonMessages.goBack}</Link>
          </Button>
        )
      }
    />
  );
}
