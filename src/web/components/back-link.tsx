import type { ReactNode } from 'react';
import { ArrowLeft } from 'lucide-react';
import type { To } from 'react-router';
import { ButtonLink } from './button-link.tsx';

/** A page's way back, above its title: a quiet link whose arrow lines up with the content. */
export function BackLink({ to, children }: { to: To; children: ReactNode }) {
  return (
    <ButtonLink to={to} icon={ArrowLeft} variant="ghost" size="sm" className="-ml-3 self-start">
      {children}
    </ButtonLink>
  );
}
