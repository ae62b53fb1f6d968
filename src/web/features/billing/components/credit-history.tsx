import { useInfiniteQuery } from '@tanstack/react-query';
import { History } from 'lucide-react';
import type { LedgerEntry } from '../../../../common/api/billing.ts';
import { creditsMessages } from '../../../../common/messages/credits.ts';
import { Button } from '../../../components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader } from '../../../components/ui/card.tsx';
import { FormAlert } from '../../../components/ui/form-alert.tsx';
import { Skeleton, SkeletonGroup } from '../../../components/ui/skeleton.tsx';
import { cn } from '../../../lib/cn.ts';
import { formatRelativeOrDate } from '../../../lib/dates.ts';
import { ledgerQueryOptions } from '../billing-api.ts';
import { loadMore } from '../../../lib/load-more.ts';

const text = creditsMessages;

function reasonLabel(entry: LedgerEntry): string {
  return text.historyReasons[entry.reason] ?? text.historyOther;
}

/** '+200', '−1' (a real minus sign), or the free-training change when no credits moved. */
function changeLabel(entry: LedgerEntry): string {
  if (entry.delta === 0 && entry.freeTrainingsDelta !== 0)
    return text.freeTrainingChange(entry.freeTrainingsDelta);
  return entry.delta > 0 ? `+${entry.delta}` : `\u2212${Math.abs(entry.delta)}`;
}

/** The account page's credit history (the ledger), newest first, a page at a time. */
export function CreditHistory() {
  const query = useInfiniteQuery(ledgerQueryOptions());
  const entries = query.data?.pages.flatMap((page) => page.entries) ?? [];
  const now = new Date();

  return (
    <section aria-labelledby="credit-history-title">
      <Card>
        <CardHeader>
          <h2 id="credit-history-title" className="text-lg font-semibold text-neutral-950">
            {text.historyTitle}
          </h2>
          <CardDescription>{text.historyDescription}</CardDescription>
        </CardHeader>
        <CardContent className="flex flex-col gap-4">
          {query.isPending ? (
            <SkeletonGroup className="flex flex-col gap-3">
              {[0, 1, 2].map((row) => (
                <Skeleton key={row} className="h-12 w-full" />
              ))}
            </SkeletonGroup>
          ) : query.isError ? (
            <FormAlert>{text.historyLoadFailed}</FormAlert>
          ) : entries.length === 0 ? (
            <div className="flex flex-col items-center gap-2 rounded-control border border-dashed border-neutral-300 px-4 py-8 text-center">
              <History aria-hidden="true" className="size-5 text-neutral-400" />
              <p className="font-medium text-neutral-900">{text.historyEmpty}</p>
              <p className="text-sm text-neutral-600">{text.historyEmptyHint}</p>
            </div>
          ) : (
            <table className="w-full text-left text-sm">
              <thead className="sr-only sm:not-sr-only">
                <tr className="border-b border-neutral-200 text-xs tracking-wide text-neutral-500 uppercase">
                  <th scope="col" className="pb-3 font-medium">
                    {text.historyColumns.activity}
                  </th>
                  <th scope="col" className="hidden pb-3 font-medium sm:table-cell">
                    {text.historyColumns.date}
                  </th>
                  <th scope="col" className="pb-3 text-right font-medium">
                    {text.historyColumns.change}
                  </th>
                  <th scope="col" className="pb-3 text-right font-medium">
                    {text.historyColumns.balance}
                  </th>
                </tr>
              </thead>
              <tbody>
                {entries.map((entry) => (
                  <tr key={entry.id} className="border-b border-neutral-100 last:border-0">
                    <td className="py-3 pr-3 align-top">
                      <span className="block font-medium text-neutral-900">
                        {reasonLabel(entry)}
                      </span>
                      {entry.note ? (
                        <span className="block text-neutral-500">{entry.note}</span>
                      ) : null}
                      {/* On phones the date sits under the activity instead of in a column. */}
                      <span className="block text-neutral-500 sm:hidden">
                        {formatRelativeOrDate(entry.createdAt, now)}
                      </span>
                    </td>
                    <td className="hidden py-3 pr-3 align-top text-neutral-600 sm:table-cell">
                      <time dateTime={entry.createdAt}>
                        {formatRelativeOrDate(entry.createdAt, now)}
                      </time>
                    </td>
                    <td
                      className={cn(
                        'py-3 pl-3 text-right align-top font-semibold whitespace-nowrap tabular-nums',
                        entry.delta > 0 || (entry.delta === 0 && entry.freeTrainingsDelta > 0)
                          ? 'text-success-700'
                          : 'text-neutral-900',
                      )}
                    >
                      {changeLabel(entry)}
                    </td>
                    <td className="py-3 pl-3 text-right align-top text-neutral-600 tabular-nums">
                      {entry.balanceAfter}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
          {query.hasNextPage ? (
            <div className="flex justify-center">
              <Button
                variant="outline"
                loading={query.isFetchingNextPage}
                onClick={() => void loadMore(query)}
              >
                {query.isFetchingNextPage ? text.loadingMore : text.loadMore}
              </Button>
            </div>
          ) : null}
        </CardContent>
      </Card>
    </section>
  );
}
