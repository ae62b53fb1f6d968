import { lazy, Suspense, useSyncExternalStore } from 'react';
import { timings } from '../../../common/product/timings.ts';
import { toastDemand } from './toast.ts';

const SonnerToaster = lazy(async () => ({ default: (await import('sonner')).Toaster }));

/**
 * Mounted once, in the app providers; it renders (and sonner downloads) only once the first
 * toast is raised. Durations: see `notify` in toast.ts.
 */
export function Toaster() {
  const raised = useSyncExternalStore(toastDemand.subscribe, toastDemand.raised, () => false);
  if (!raised) return null;
  return (
    <Suspense fallback={null}>
      <SonnerToaster
        position="bottom-right"
        duration={timings.toast.shortMs}
        closeButton
        toastOptions={{
          classNames: {
            toast:
              'rounded-control! border-neutral-200! bg-white! font-sans! text-neutral-900! shadow-lifted!',
            description: 'text-neutral-600!',
            error: 'text-danger-700! [&_[data-icon]]:text-danger-600!',
            success: '[&_[data-icon]]:text-success-600!',
          },
        }}
      />
    </Suspense>
  );
}
