import type { FastifyBaseLogger } from 'fastify';
import type { CostsResponse } from '../../../common/api/costs.ts';
import type { Database } from '../../db/client.ts';
import { metrics } from '../../observability/metrics.ts';
import { priceOf, type CostKind, type PriceTable } from './prices.ts';
import { costTotals, insertCost } from './repository.ts';

/** The call whose cost is recorded: one picture, re-roll, upscale, preview, training or try-on. */
export interface ProviderCall {
  kind: CostKind;
  engine: string;
  /** The generation, model, preview or try-on it was for. */
  reference: string;
  /**
   * The call itself, unique for the engine (the provider's job id): a job retried after the
   * call was recorded records nothing more.
   */
  callId: string;
}

/**
 * The operator's costs (issue 17): each provider call's price (prices.ts) recorded when the
 * provider took the call, counted on /metrics and summed for the admin page. Other features
 * record through `record` only.
 */
export function createCosts(deps: { db: Database; prices: PriceTable; logger: FastifyBaseLogger }) {
  return {
    /**
     * Records one call (nothing for a free engine). The provider's work happened whatever our
     * own transaction does next, so this writes on its own; a failure is logged, never thrown
     * into the user's job.
     */
    async record(call: ProviderCall): Promise<void> {
      const usd = priceOf(deps.prices, call.engine, call.kind);
      if (usd <= 0) return;
      const { callId, ...recorded } = call;
      try {
        const id = `${call.engine}:${call.kind}:${callId}`;
        if (!(await insertCost(deps.db, { id, ...recorded, usd }))) return;
        metrics.providerCalls.inc({ engine: call.engine, kind: call.kind });
        metrics.providerCostUsd.inc({ engine: call.engine, kind: call.kind }, usd);
      } catch (error) {
        deps.logger.error({ err: error, ...call }, 'a provider cost was not recorded');
      }
    },

    /** The last `days` days by kind and engine, and per thing a user gets. */
    async summary(days: number): Promise<CostsResponse> {
      const since = new Date(Date.now() - days * 86_400_000);
      const lines = await costTotals(deps.db, since);
      const sum = (kinds: CostKind[]) =>
        lines.filter((l) => kinds.includes(l.kind as CostKind)).reduce((t, l) => t + l.totalUsd, 0);
      const calls = (kind: CostKind) =>
        lines.filter((l) => l.kind === kind).reduce((t, l) => t + l.calls, 0);
      const per = (total: number, count: number) => (count > 0 ? total / count : null);
      return {
        since: since.toISOString(),
        lines,
        perPicture: per(sum(['picture', 'reroll', 'upscale']), calls('picture')),
        perPreview: per(sum(['preview']), calls('preview')),
        perTraining: per(sum(['training']), calls('training')),
        perTryOn: per(sum(['tryon']), calls('tryon')),
        totalUsd: sum(['picture', 'reroll', 'upscale', 'preview', 'training', 'tryon']),
      };
    },
  };
}

export type Costs = ReturnType<typeof createCosts>;
