import { useEffect, useState } from 'react';
import { Clock } from 'lucide-react';
import { offerMessages } from '../../../../common/messages/quiz.ts';
import { offer } from '../../../../common/product/quiz.ts';
import { timings } from '../../../../common/product/timings.ts';
import { formatCountdown } from '../quiz-logic.ts';

/**
 * Fifteen minutes from the moment the offer shows, ticking each second. It stops at 0:00 and
 * nothing else happens (the specification's expire handler is unset). The time left is read
 * from the clock, not counted in ticks, so a throttled background tab still shows the truth.
 */
export function OfferCountdown() {
  const [deadline] = useState(() => Date.now() + offer.countdownSeconds * 1000);
  const [remaining, setRemaining] = useState<number>(offer.countdownSeconds);
  const expired = remaining <= 0;

  useEffect(() => {
    if (expired) return;
    const timer = setInterval(() => {
      setRemaining(Math.max(0, Math.ceil((deadline - Date.now()) / 1000)));
    }, timings.offerCountdownTickMs);
    return () => clearInterval(timer);
  }, [deadline, expired]);

  return (
    <div className="flex items-center justify-between gap-4 rounded-card border border-accent-200 bg-gradient-to-r from-accent-50 to-white px-5 py-4 shadow-card md:px-6">
      <p className="flex items-center gap-3 text-sm font-medium text-accent-800">
        <Clock aria-hidden="true" className="size-5 shrink-0 text-accent-600" />
        {offerMessages.countdownLabel}
      </p>
      {/* role=timer is not announced each second (it would drown everything else out). */}
      <p
        role="timer"
        aria-label={offerMessages.countdownLabel}
        data-testid="offer-countdown"
        className="text-2xl font-semibold tracking-tight text-accent-800 tabular-nums md:text-3xl"
      >
        {formatCountdown(remaining)}
      </p>
    </div>
  );
}
