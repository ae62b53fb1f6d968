import type { ComponentProps } from 'react';
import { cn } from '../../lib/cn.ts';
import { fieldClasses } from './input.tsx';

export interface TextareaProps extends ComponentProps<'textarea'> {
  invalid?: boolean;
}

export function Textarea({ className, invalid, ...props }: TextareaProps) {
  return (
    <textarea
      aria-invalid={invalid || undefined}
      className={cn(fieldClasses, 'min-h-30 resize-y py-3 leading-relaxed', className)}
      {...props}
    />
  );
}
