import { RefreshCw } from 'lucide-react';
import { commonMessages } from '../../../../common/messages/shell.ts';
import { Button } from '../../../components/ui/button.tsx';
import { EmptyState, type EmptyStateProps } from '../../../components/ui/empty-state.tsx';

/** In place of what could not load (the models, the photos): the reason, said at once, and Try again. */
export function LoadFailed({
  message,
  onRetry,
  headingLevel,
}: {
  message: string;
  onRetry: () => void;
  headingLevel?: EmptyStateProps['headingLevel'];
}) {
  return (
    <EmptyState
      title={<span role="alert">{message}</span>}
      headingLevel={headingLevel}
      action={
        <Button variant="outline" onClick={onRetry}>
          <RefreshCw aria-hidden="true" className="size-4" />
          {commonMessages.tryAgain}
        </Button>
      }
    />
  );
}
