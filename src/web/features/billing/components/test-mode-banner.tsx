import type { ReactNode } from 'react';
import { FlaskConical } from 'lucide-react';
import { billingMessages } from '../../../../common/messages/billing.ts';
import { Container } from '../../../components/ui/container.tsx';
import { cn } from '../../../lib/cn.ts';

const text = billingMessages.testMode;

/** Says, before anything else on the page, that this is the built-in test payment page. */
export function TestModeBanner() {
  return (
    <div
      role="note"
      aria-label={text.banner}
      className="flex items-start gap-3 rounded-control border border-warning-300 bg-warning-50 px-4 py-3 text-sm text-warning-900"
    >
      <FlaskConical aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
      <p>
        <strong className="mr-2 font-semibold tracking-wide">{text.banner}</strong>
        {text.bannerDetail}
      </p>
    </div>
  );
}

/**
 * The built-in test payment pages (checkout, portal): the banner first, then the title (with its
 * `badge` beside it) and the subtitle, then the page.
 */
export function TestModePage({
  title,
  badge,
  subtitle,
  children,
}: {
  title: ReactNode;
  badge?: ReactNode;
  subtitle: ReactNode;
  children: ReactNode;
}) {
  return (
    <Container size="sm" className="flex flex-col gap-6 py-8 md:py-12">
      <TestModeBanner />
      <div className="flex flex-col gap-2">
        <h1
          className={cn(
            badge !== undefined && 'flex flex-wrap items-center gap-3',
            'text-3xl font-semibold text-neutral-950',
          )}
        >
          {title}
          {badge}
        </h1>
        <p className="text-neutral-600">{subtitle}</p>
      </div>
      {children}
    </Container>
  );
}
