import type { ExternalToast } from 'sonner';
import { timings } from '../../../common/product/timings.ts';

type Sonner = typeof import('sonner');

let sonner: Promise<Sonner> | undefined;
const demandListeners = new Set<() => void>();

/**
 * sonner loads with the first toast, not with the page: most visits show none (the landing
 * never does). Asking for it also mounts the Toaster (see toaster.tsx), which shows the toasts
 * raised before it subscribed.
 */
function withSonner(show: (module: Sonner) => void): void {
  if (!sonner) {
    sonner = import('sonner');
    demandListeners.forEach((listener) => listener());
  }
  void sonner.then(show);
}

/** Whether a toast has been raised yet; the Toaster stays unmounted (and unloaded) until then. */
export const toastDemand = {
  raised: (): boolean => sonner !== undefined,
  subscribe(listener: () => void): () => void {
    demandListeners.add(listener);
    return () => demandListeners.delete(listener);
  },
};

/**
 * How the app announces outcomes. Confirmations are short (2 s, the Toaster's default); errors
 * stay 5 s so there is time to read what went wrong. Features call these rather than sonner
 * directly so the durations stay as the specification sets them.
 */
export const notify = {
  success: (message: string, options?: ExternalToast) =>
    withSonner(({ toast }) => toast.success(message, options)),
  info: (message: string, options?: ExternalToast) =>
    withSonner(({ toast }) => toast.info(message, options)),
  message: (message: string, options?: ExternalToast) =>
    withSonner(({ toast }) => toast(message, options)),
  error: (message: string, options?: ExternalToast) =>
    withSonner(({ toast }) => toast.error(message, { duration: timings.toast.longMs, ...options })),
  dismiss: (id?: string | number) => {
    // Nothing was ever shown if sonner has not been asked for.
    if (sonner) withSonner(({ toast }) => toast.dismiss(id));
  },
};
