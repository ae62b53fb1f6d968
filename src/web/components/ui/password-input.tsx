import { useState } from 'react';
import { Eye, EyeOff } from 'lucide-react';
import { authMessages } from '../../../common/messages/auth.ts';
import { cn } from '../../lib/cn.ts';
import { Input, type InputProps } from './input.tsx';

/**
 * A password field with a show/hide toggle: people on phones mistype passwords they cannot see.
 * The toggle is a real button (keyboard operable, named, pressed state announced) that does not
 * submit the form.
 */
export function PasswordInput({ className, ...props }: Omit<InputProps, 'type'>) {
  const [visible, setVisible] = useState(false);
  return (
    <div className="relative">
      <Input
        type={visible ? 'text' : 'password'}
        className={cn('pr-12', className)}
        // Browsers would otherwise offer to auto-correct and capitalise a visible password.
        autoCapitalize="none"
        autoCorrect="off"
        spellCheck={false}
        {...props}
      />
      <button
        type="button"
        // One name and a pressed state (not a name that flips), as toggle buttons should be.
        aria-label={authMessages.showPassword}
        aria-pressed={visible}
        disabled={props.disabled}
        onClick={() => setVisible((shown) => !shown)}
        className="absolute inset-y-0 right-0 flex w-11 cursor-pointer items-center justify-center rounded-r-control text-neutral-500 transition-colors hover:text-neutral-900 disabled:pointer-events-none"
      >
        {visible ? (
          <EyeOff aria-hidden="true" className="size-4" />
        ) : (
          <Eye aria-hidden="true" className="size-4" />
        )}
      </button>
    </div>
  );
}
