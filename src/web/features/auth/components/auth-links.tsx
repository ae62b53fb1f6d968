import { Link } from 'react-router';

/** Links inside running text: underlined, so they are not told apart by colour alone. */
export const inlineLinkClasses =
  'rounded font-medium text-neutral-800 underline decoration-neutral-300 underline-offset-4 transition-colors hover:text-neutral-950 hover:decoration-neutral-500';

/** A link inside an alert: the alert's own colour, underlined. */
export const alertLinkClasses =
  'rounded font-semibold whitespace-nowrap underline underline-offset-4 hover:no-underline';

/** "Don't have an account? Sign up" under a form. */
export function AuthSwitchLink({
  prompt,
  to,
  label,
}: {
  prompt: string;
  to: string;
  label: string;
}) {
  return (
    <p className="text-sm text-neutral-600">
      {prompt}{' '}
      <Link to={to} className={inlineLinkClasses}>
        {label}
      </Link>
    </p>
  );
}
