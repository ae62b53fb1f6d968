import { Toaster as SonnerToaster } from 'sonner';
import { timings } from '../../../common/product.ts';

/** Mounted once, in the app providers. Durations: see `notify` in toast.ts. */
export function Toaster() {
  return (
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
  );
}
