import { googleMessages } from '../../../../common/messages/auth.ts';
import { Button } from '../../../components/ui/button.tsx';

/** Google's "G", in its own colours as Google's sign-in guidelines ask. */
function GoogleMark() {
  return (
    <svg viewBox="0 0 24 24" aria-hidden="true" className="size-5">
      <path
        fill="#4285F4"
        d="M23.52 12.27c0-.85-.08-1.67-.22-2.45H12v4.64h6.46a5.52 5.52 0 0 1-2.4 3.62v3h3.88c2.27-2.09 3.58-5.17 3.58-8.81Z"
      />
      <path
        fill="#34A853"
        d="M12 24c3.24 0 5.96-1.07 7.94-2.9l-3.88-3.02c-1.07.72-2.45 1.15-4.06 1.15-3.13 0-5.77-2.11-6.72-4.95H1.27v3.11A12 12 0 0 0 12 24Z"
      />
      <path
        fill="#FBBC05"
        d="M5.28 14.28A7.2 7.2 0 0 1 4.9 12c0-.79.14-1.56.38-2.28V6.61H1.27A12 12 0 0 0 0 12c0 1.94.46 3.77 1.27 5.39l4.01-3.11Z"
      />
      <path
        fill="#EA4335"
        d="M12 4.77c1.76 0 3.34.61 4.59 1.8l3.44-3.44C17.95 1.19 15.24 0 12 0A12 12 0 0 0 1.27 6.61l4.01 3.11C6.23 6.88 8.87 4.77 12 4.77Z"
      />
    </svg>
  );
}

export interface GoogleButtonProps {
  onClick: () => void;
  busy: boolean;
  /** While another action of the form runs. */
  disabled?: boolean;
}

/** 'Continue with Google', busy while the browser is being sent to Google. */
export function GoogleButton({ onClick, busy, disabled }: GoogleButtonProps) {
  return (
    <Button
      variant="outline"
      size="lg"
      className="w-full"
      loading={busy}
      disabled={disabled}
      onClick={onClick}
    >
      {busy ? null : <GoogleMark />}
      {busy ? googleMessages.redirecting : googleMessages.continue}
    </Button>
  );
}
