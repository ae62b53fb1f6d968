import { authMessages } from '../../../../common/messages/auth.ts';
import { Spinner } from '../../../components/ui/spinner.tsx';

/** While the session is being read: said in words, in the room the page will take. */
export function AuthChecking() {
  return (
    <div className="flex min-h-[60dvh] flex-1 flex-col items-center justify-center gap-4 px-5 text-neutral-600">
      <Spinner size="lg" className="text-accent-600" />
      <p role="status" className="text-sm font-medium">
        {authMessages.checkingAuthentication}
      </p>
    </div>
  );
}
