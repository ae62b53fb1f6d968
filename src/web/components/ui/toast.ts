import { toast, type ExternalToast } from 'sonner';
import { timings } from '../../../common/product.ts';

/**
 * How the app announces outcomes. Confirmations are short (2 s, the Toaster's default); errors
 * stay 5 s so there is time to read what went wrong. Features call these rather than sonner
 * directly so the durations stay as the specification sets them.
 */
export const notify = {
  success: (message: string, options?: ExternalToast) => toast.success(message, options),
  info: (message: string, options?: ExternalToast) => toast.info(message, options),
  message: (message: string, options?: ExternalToast) => toast(message, options),
  error: (message: string, options?: ExternalToast) =>
    toast.error(message, { duration: timings.toast.longMs, ...options }),
  dismiss: (id?: string | number) => toast.dismiss(id),
};
