import type { ComponentProps } from 'react';
import { CircleAlert, CircleCheck } from 'lucide-react';
import { cn } from '../../lib/cn.ts';

const tones = {
  error: 'border-danger-100 bg-danger-50 text-danger-700 [&>svg]:text-danger-600',
  success: 'border-success-100 bg-success-50 text-success-700 [&>svg]:text-success-600',
} as const;

export interface FormAlertProps extends ComponentProps<'div'> {
  tone?: keyof typeof tones;
}

/**
 * A form's outcome, in words. Errors are `role="alert"`, so screen readers announce them the
 * moment they appear; confirmations are a polite `status`. Extra children (a "Sign in instead"
 * link) follow the message.
 */
export function FormAlert({ tone = 'error', className, children, ...props }: FormAlertProps) {
  const Icon = tone === 'error' ? CircleAlert : CircleCheck;
  return (
    <div
      role={tone === 'error' ? 'alert' : 'status'}
      className={cn(
        'flex items-start gap-3 rounded-control border px-4 py-3 text-sm leading-relaxed',
        tones[tone],
        className,
      )}
      {...props}
    >
      <Icon aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
      <div className="min-w-0 flex-1">{children}</div>
    </div>
  );
}
