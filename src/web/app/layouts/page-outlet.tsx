import { memo, Suspense } from 'react';
import { Outlet, useLocation } from 'react-router';
import { Spinner } from '../../components/ui/spinner.tsx';
import { commonMessages } from '../../../common/messages/shell.ts';
import { ErrorBoundary } from '../error-boundary.tsx';

/**
 * Where a layout shows its page: pages are loaded on demand (route-level code splitting), and a
 * page that crashes is contained here, keyed by the path so the next navigation starts clean
 * while the bars around it keep working. Memoised: a layout re-renders when the session changes
 * (its account buttons), and the whole page below need not be drawn again for that.
 */
export const PageOutlet = memo(function PageOutlet() {
  const { pathname } = useLocation();
  return (
    <ErrorBoundary key={pathname}>
      <Suspense fallback={<PageLoading />}>
        <Outlet />
      </Suspense>
    </ErrorBoundary>
  );
});

/**
 * Shown while a page's code downloads. It fades in only after 300 ms, so fast loads do not flash
 * a spinner, and it takes the room of a page so the footer does not jump up and back down.
 */
export function PageLoading() {
  return (
    <div className="flex min-h-[60dvh] animate-fade-in-delayed items-center justify-center text-neutral-500">
      <Spinner size="lg" label={commonMessages.loadingEllipsis} />
    </div>
  );
}
