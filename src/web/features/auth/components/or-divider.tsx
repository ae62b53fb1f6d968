import { authMessages } from '../../../../common/messages/auth.ts';

/** "or" between Google and the email form; a visual separator, read as the word only. */
export function OrDivider() {
  return (
    <div className="flex items-center gap-4 text-xs font-medium tracking-wide text-neutral-500 uppercase">
      <span aria-hidden="true" className="h-px flex-1 bg-neutral-200" />
      {authMessages.or}
      <span aria-hidden="true" className="h-px flex-1 bg-neutral-200" />
    </div>
  );
}
