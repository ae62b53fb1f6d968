import { Component, type ErrorInfo, type ReactNode } from 'react';
import { House, RefreshCw } from 'lucide-react';
import { commonMessages, notFoundMessages } from '../../common/messages/shell.ts';
import { Button } from '../components/ui/button.tsx';

interface ErrorBoundaryProps {
  children: ReactNode;
  /** Full-screen fallback for the outermost boundary; page-sized otherwise. */
  fullScreen?: boolean;
}

interface ErrorBoundaryState {
  error: Error | null;
}

/**
 * Catches a render error below it and shows a friendly page instead of a blank screen. The
 * layouts put one around each page (keyed by the path, so navigating away recovers); one more
 * wraps the whole app for errors in the shell itself.
 */
export class ErrorBoundary extends Component<ErrorBoundaryProps, ErrorBoundaryState> {
  override state: ErrorBoundaryState = { error: null };

  static getDerivedStateFromError(error: unknown): ErrorBoundaryState {
    return { error: error instanceof Error ? error : new Error(String(error)) };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo): void {
    console.error('The page crashed while rendering', error, info.componentStack);
    reloadOnceForStaleBuild(error);
  }

  override render(): ReactNode {
    if (!this.state.error) return this.props.children;
    return <ErrorFallback fullScreen={this.props.fullScreen ?? false} />;
  }
}

const staleBuildPattern =
  /dynamically imported module|Importing a module script failed|Loading chunk/i;
const reloadedKey = 'reloadedForStaleBuild';

/**
 * After a deploy, an open tab asks for code chunks that no longer exist. One reload fetches the
 * new build; the flag (per page) stops a loop if the chunk is missing for another reason.
 */
function reloadOnceForStaleBuild(error: unknown): void {
  if (!(error instanceof Error) || !staleBuildPattern.test(error.message)) return;
  const page = window.location.pathname;
  if (sessionStorage.getItem(reloadedKey) === page) return;
  sessionStorage.setItem(reloadedKey, page);
  window.location.reload();
}

export function ErrorFallback({ fullScreen }: { fullScreen: boolean }) {
  return (
    <div
      role="alert"
      className={
        fullScreen
          ? 'flex min-h-dvh items-center justify-center px-5 py-16'
          : 'flex items-center justify-center px-5 py-20 md:py-28'
      }
    >
      <div className="flex max-w-md flex-col items-center gap-5 text-center">
        <h1 className="text-2xl font-semibold text-neutral-950 md:text-3xl">
          {commonMessages.somethingWentWrong}
        </h1>
        <p className="text-base leading-relaxed text-neutral-600">
          {commonMessages.unexpectedError}
        </p>
        <div className="flex flex-wrap justify-center gap-3">
          {/* A reload also fetches a fresh build, which fixes a chunk that failed to load. */}
          <Button onClick={() => window.location.reload()}>
            <RefreshCw aria-hidden="true" className="size-4" />
            {commonMessages.tryAgain}
          </Button>
          {/* A full navigation rather than a router link: the router itself may be what broke. */}
          <Button asChild variant="outline">
            <a href="/">
              <House aria-hidden="true" className="size-4" />
              {notFoundMessages.homeLink}
            </a>
          </Button>
        </div>
      </div>
    </div>
  );
}
