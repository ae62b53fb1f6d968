import { authMessages } from '../../../../common/messages/auth.ts';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { cn } from '../../../lib/cn.ts';

/**
 * While the session is being read: said in words, in the room the page will take (the whole
 * screen for the guard of the signed-in pages, which has no frame around it yet).
 */
export function AuthChecking({ fullScreen = false }: { fullScreen?: boolean }) {
  return (
    <div
      className={cn(
        'flex flex-col items-center justify-center gap-4 px-5 text-neutral-600',
        fullScreen ? 'min-h-dvh' : 'min-h-[60dvh] flex-1',
      )}
    >
      <Spinner size="lg" className="text-accent-600" />
      <p role="status" className="text-sm font-medium">
        {authMessages.checkingAuthentication}
      </p>
    </div>
  );
}
