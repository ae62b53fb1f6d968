import type { ReactNode } from 'react';
import { Label } from './label.tsx';

export interface FormFieldProps {
  /** The control's id; the label points at it. */
  id: string;
  label: ReactNode;
  /** Beside the label, right-aligned (e.g. a "Forgot password" link). */
  labelAside?: ReactNode;
  /** A standing hint under the control; give the control `aria-describedby={`${id}-hint`}`. */
  hint?: ReactNode;
  children: ReactNode;
}

/** Label, control and hint, spaced the same on every form. */
export function FormField({ id, label, labelAside, hint, children }: FormFieldProps) {
  return (
    <div className="flex flex-col gap-2">
      <div className="flex min-h-5 items-center justify-between gap-3">
        <Label htmlFor={id}>{label}</Label>
        {labelAside}
      </div>
      {children}
      {hint ? (
        <p id={fieldHintId(id)} className="text-xs text-neutral-500">
          {hint}
        </p>
      ) : null}
    </div>
  );
}

export function fieldHintId(id: string): string {
  return `${id}-hint`;
}

/** The ids a control is described by: its hint and/or the form's error, when present. */
export function describedBy(...ids: (string | false | null | undefined)[]): string | undefined {
  const present = ids.filter(Boolean);
  return present.length ? present.join(' ') : undefined;
}
