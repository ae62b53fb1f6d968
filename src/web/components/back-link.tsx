import type { ReactNode } from 'react';
import { ArrowLeft } from 'lucide-react';
import { Link, type To } from 'react-router';
import { Button } from './ui/button.tsx';

/** A page's way back, above its title: a quiet link whose arrow lines up with the content. */
export function BackLink({ to, children }: { to: To; children: ReactNode }) {
  return (
    <Button asChild variant="ghost" size="sm" className="-ml-3 self-start">
      <Link to={to}>
        <ArrowLeft aria-hidden="true" className="size-4" />
        {children}
      </Link>
    </Button>
  );
}
