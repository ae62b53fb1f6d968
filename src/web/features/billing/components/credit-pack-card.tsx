import { Coins } from 'lucide-react';
import { creditsMessages } from '../../../../common/messages/credits.ts';
import type { CreditPack } from '../../../../common/product/credit-packs.ts';
import { formatUsd } from '../../../../common/product/money.ts';
import { Badge } from '../../../components/ui/badge.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { cn } from '../../../lib/cn.ts';

const text = creditsMessages;

export interface CreditPackCardProps {
  pack: CreditPack;
  processing: boolean;
  disabled: boolean;
  onBuy: () => void;
}

/** One credit pack: how many credits, its price against the regular one, and Buy. */
export function CreditPackCard({ pack, processing, disabled, onBuy }: CreditPackCardProps) {
  const titleId = `pack-${pack.id}-title`;
  return (
    <article
      aria-labelledby={titleId}
      className={cn(
        'flex h-full flex-col gap-5 rounded-card border bg-white p-6 shadow-card',
        pack.popular ? 'border-accent-300 ring-1 ring-accent-300' : 'border-neutral-200/80',
      )}
    >
      <div className="flex h-6 items-center justify-between gap-2">
        <span className="flex size-9 items-center justify-center rounded-full bg-accent-50 text-accent-700">
          <Coins aria-hidden="true" className="size-4" />
        </span>
        {pack.popular ? (
          <Badge variant="accent" className="tracking-wide">
            {text.mostPopular}
          </Badge>
        ) : null}
      </div>
      <h2 id={titleId} className="text-2xl font-semibold text-neutral-950 tabular-nums">
        {text.packCredits(pack.credits)}
      </h2>
      <div className="flex flex-1 flex-col gap-2">
        <p className="flex flex-wrap items-baseline gap-x-2 gap-y-1">
          <span className="text-3xl font-semibold tracking-tight text-neutral-950 tabular-nums">
            {formatUsd(pack.priceUsd)}
          </span>
          <s className="text-base text-neutral-500 tabular-nums">
            <span className="sr-only">{text.originalPrice(formatUsd(pack.originalPriceUsd))}</span>
            <span aria-hidden="true">{formatUsd(pack.originalPriceUsd)}</span>
          </s>
        </p>
        <div>
          <Badge variant="success">{text.discount(pack.discountPercent)}</Badge>
        </div>
      </div>
      <Button
        size="lg"
        className="w-full"
        variant={pack.popular ? 'primary' : 'outline'}
        loading={processing}
        disabled={disabled}
        onClick={onBuy}
        aria-describedby={titleId}
      >
        {processing ? text.processing : text.buy}
      </Button>
    </article>
  );
}
