import { useQuery } from '@tanstack/react-query';
import { adminPageMessages } from '../../../../common/messages/admin.ts';
import { Card } from '../../../components/ui/card.tsx';
import { adminCostsQuery } from '../admin-api.ts';
import { AdminList, AdminListRow, PanelHeader, PanelState } from './admin-layout.tsx';

const text = adminPageMessages.costs;

const dollars = new Intl.NumberFormat('en-US', {
  style: 'currency',
  currency: 'USD',
  minimumFractionDigits: 2,
  maximumFractionDigits: 4,
});

/** What the providers cost over the last 30 days: per thing a user gets, then every kind of call. */
export function CostsPanel() {
  const query = useQuery(adminCostsQuery(30));
  const costs = query.data;
  const perThing = costs
    ? ([
        [text.perPicture, costs.perPicture],
        [text.perPreview, costs.perPreview],
        [text.perTraining, costs.perTraining],
        [text.perTryOn, costs.perTryOn],
      ] as const)
    : [];
  return (
    <section aria-labelledby="admin-costs" className="flex flex-col gap-5">
      <PanelHeader id="admin-costs" title={text.title} />
      <p className="text-sm text-neutral-600">{text.explanation}</p>
      <PanelState query={query} empty={costs && costs.lines.length === 0 ? text.none : null}>
        <dl className="grid grid-cols-2 gap-3 md:grid-cols-5">
          {perThing.map(([label, value]) => (
            <Card key={label} className="flex flex-col gap-1 p-4">
              <dt className="text-sm text-neutral-600">{label}</dt>
              <dd className="text-lg font-semibold text-neutral-950">
                {value === null ? '—' : dollars.format(value)}
              </dd>
            </Card>
          ))}
          <Card className="col-span-2 flex flex-col gap-1 p-4 md:col-span-1">
            <dt className="text-sm text-neutral-600">{text.total}</dt>
            <dd className="text-lg font-semibold text-neutral-950" data-testid="costs-total">
              {costs ? dollars.format(costs.totalUsd) : '—'}
            </dd>
          </Card>
        </dl>
        <AdminList>
          {costs?.lines.map((line) => (
            <AdminListRow key={`${line.kind}-${line.engine}`}>
              <span className="min-w-0 flex-1 font-medium text-neutral-950">
                {text.kinds[line.kind as keyof typeof text.kinds] ?? line.kind}
              </span>
              <span className="text-sm text-neutral-600">{line.engine}</span>
              <span className="text-sm text-neutral-600">{text.calls(line.calls)}</span>
              <span className="w-24 text-right font-medium tabular-nums text-neutral-950">
                {dollars.format(line.totalUsd)}
              </span>
            </AdminListRow>
          ))}
        </AdminList>
      </PanelState>
    </section>
  );
}
