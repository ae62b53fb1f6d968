import type { ComponentProps } from 'react';
import { Tabs as TabsPrimitive } from 'radix-ui';
import { cn } from '../../lib/cn.ts';

/** Tabs on Radix: arrow keys move between tabs, and each panel is labelled by its tab. */
export const Tabs = TabsPrimitive.Root;

export function TabsList({ className, ...props }: ComponentProps<typeof TabsPrimitive.List>) {
  return (
    <TabsPrimitive.List
      className={cn(
        // Scrolls sideways on narrow phones instead of wrapping or squeezing the labels.
        'inline-flex max-w-full items-center gap-1 overflow-x-auto rounded-full bg-neutral-200/60 p-1',
        className,
      )}
      {...props}
    />
  );
}

export function TabsTrigger({ className, ...props }: ComponentProps<typeof TabsPrimitive.Trigger>) {
  return (
    <TabsPrimitive.Trigger
      className={cn(
        'inline-flex h-9 shrink-0 cursor-pointer items-center justify-center gap-2 rounded-full px-4 text-sm font-medium whitespace-nowrap text-neutral-600 transition-colors',
        'hover:text-neutral-950 disabled:pointer-events-none disabled:opacity-50 [&_svg]:size-4',
        'data-[state=active]:bg-white data-[state=active]:text-neutral-950 data-[state=active]:shadow-sm',
        className,
      )}
      {...props}
    />
  );
}

export function TabsContent({ className, ...props }: ComponentProps<typeof TabsPrimitive.Content>) {
  return (
    <TabsPrimitive.Content
      className={cn('mt-6 focus-visible:outline-offset-4', className)}
      {...props}
    />
  );
}
