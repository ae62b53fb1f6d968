import type { ReactNode } from 'react';
import { Container } from '../../../components/ui/container.tsx';
import { cn } from '../../../lib/cn.ts';
import { AuthSidePanel } from './auth-side-panel.tsx';

export interface AuthPageShellProps {
  title: ReactNode;
  subtitle?: ReactNode;
  /** Above the title (the yearly offer's badge). */
  eyebrow?: ReactNode;
  children: ReactNode;
  /** The picture panel beside the form on wide screens (login, sign-up). */
  sidePanel?: boolean;
}

/**
 * The frame of the auth screens: one narrow column with the page's h1 and its form, and on wide
 * screens the studio's promise beside it. Phones get the form alone, first thing on the screen.
 */
export function AuthPageShell({
  title,
  subtitle,
  eyebrow,
  children,
  sidePanel = false,
}: AuthPageShellProps) {
  return (
    <Container
      className={cn(
        'grid flex-1 gap-12 pt-6 pb-14 md:pt-10 md:pb-20',
        sidePanel && 'lg:grid-cols-[minmax(0,1fr)_minmax(0,1.1fr)] lg:gap-16 lg:pt-8 lg:pb-12',
      )}
    >
      {/* Top-aligned on phones (the keyboard takes the lower half); centred beside the panel. */}
      <div className="flex flex-col md:justify-center">
        <div className="mx-auto flex w-full max-w-sm flex-col gap-8">
          <div className="flex flex-col items-start gap-3">
            {eyebrow}
            <h1 className="text-3xl font-semibold text-neutral-950 md:text-4xl">{title}</h1>
            {subtitle ? (
              <p className="text-base leading-relaxed text-neutral-600">{subtitle}</p>
            ) : null}
          </div>
          {children}
        </div>
      </div>
      {sidePanel ? <AuthSidePanel /> : null}
    </Container>
  );
}
