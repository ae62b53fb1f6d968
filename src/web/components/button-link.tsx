import type { ReactNode } from 'react';
import type { LucideIcon } from 'lucide-react';
import { Link, type To } from 'react-router';
import { Button, type ButtonProps } from './ui/button.tsx';

export interface ButtonLinkProps extends Pick<ButtonProps, 'variant' | 'size' | 'className'> {
  to: To;
  /** Drawn before the label. */
  icon?: LucideIcon;
  /** Drawn after the label (an arrow onwards). */
  trailingIcon?: LucideIcon;
  children: ReactNode;
  'data-testid'?: string;
}

/** A link to another page that looks like a button, with its icons at the button's size. */
export function ButtonLink({
  to,
  icon: Icon,
  trailingIcon: TrailingIcon,
  children,
  ...buttonProps
}: ButtonLinkProps) {
  return (
    <Button asChild {...buttonProps}>
      <Link to={to}>
        {Icon ? <Icon aria-hidden="true" className="size-4" /> : null}
        {children}
        {TrailingIcon ? <TrailingIcon aria-hidden="true" className="size-4" /> : null}
      </Link>
    </Button>
  );
}
