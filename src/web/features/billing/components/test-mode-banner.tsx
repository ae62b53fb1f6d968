import { FlaskConical } from 'lucide-react';
import { billingMessages } from '../../../../common/messages/billing.ts';

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
