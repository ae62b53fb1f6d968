import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/**
 * The process's Prometheus registry, on prom-client (decision 028): the runtime metrics every
 * Node service exposes (event-loop lag `nodejs_eventloop_lag_seconds`, heap, GC, handles, CPU,
 * resident memory) beside our own counters, histograms and gauges, whose names and labels are
 * those of the hand-written registry this replaced.
 */

const secondsBuckets = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300];

type Labels = Record<string, string>;

/** One registry per process (each web or worker process is scraped). */
export function createMetrics() {
  const registry = new Registry();
  const httpDuration = new Histogram({
    name: 'likeness_http_request_duration_seconds',
    help: 'HTTP request latency by method, route and status',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: secondsBuckets,
    registers: [registry],
  });
  const jobsTotal = new Counter({
    name: 'likeness_jobs_total',
    help: 'Jobs handled by this process, by queue and outcome (completed, failed)',
    labelNames: ['queue', 'outcome'] as const,
    registers: [registry],
  });
  const jobDuration = new Histogram({
    name: 'likeness_job_duration_seconds',
    help: 'Job handling time by queue',
    labelNames: ['queue'] as const,
    buckets: secondsBuckets,
    registers: [registry],
  });
  const analysisMemo = new Counter({
    name: 'likeness_image_analysis_total',
    help: 'Photo analyses by task, computed (miss) or answered from the ones of the same bytes (hit)',
    labelNames: ['task', 'outcome'] as const,
    registers: [registry],
  });
  const engineErrors = new Counter({
    name: 'likeness_engine_errors_total',
    help: 'Errors from image engines, by engine, operation and kind (transient, final)',
    labelNames: ['engine', 'operation', 'kind'] as const,
    registers: [registry],
  });
  const likenessChecks = new Counter({
    name: 'likeness_generation_likeness_checks_total',
    help: 'Finished pictures measured against the user, by try (first, reroll) and result (above, below the re-roll threshold, unmeasured); first/below over first is the share re-rolled',
    labelNames: ['engine', 'attempt', 'result'] as const,
    registers: [registry],
  });
  const likenessRefunds = new Counter({
    name: 'likeness_generation_likeness_refunds_total',
    help: 'Generations whose every try stayed below the likeness threshold: the user kept the most alike and got the credit back',
    labelNames: ['engine'] as const,
    registers: [registry],
  });
  const likenessRerollThreshold = new Gauge({
    name: 'likeness_generation_likeness_reroll_threshold',
    help: 'Face similarity to the user below which a finished picture is made again',
    registers: [registry],
  });
  const likenessRerollsAllowed = new Gauge({
    name: 'likeness_generation_likeness_rerolls_allowed',
    help: 'Re-rolls a generation may get for the likeness (GENERATION_LIKENESS_REROLLS)',
    registers: [registry],
  });
  const providerCalls = new Counter({
    name: 'likeness_provider_calls_total',
    help: 'Paid provider calls by engine and kind (picture, reroll, upscale, preview, training, tryon)',
    labelNames: ['engine', 'kind'] as const,
    registers: [registry],
  });
  const providerCostUsd = new Counter({
    name: 'likeness_provider_cost_dollars_total',
    help: 'What those calls cost by the price table (PROVIDER_PRICES_USD), in US dollars; over likeness_provider_calls_total, the cost per call',
    labelNames: ['engine', 'kind'] as const,
    registers: [registry],
  });
  // Kept beside prom-client's process_resident_memory_bytes and nodejs_heap_size_used_bytes:
  // dashboards read these names. Buffers (uploads, images) live outside the V8 heap and are
  // freed only when collected, which no default metric shows.
  const memoryGauges = [
    ['likeness_process_resident_memory_bytes', 'Resident memory of this process', 'rss'],
    ['likeness_process_heap_used_bytes', 'V8 heap in use', 'heapUsed'],
    [
      'likeness_process_array_buffers_bytes',
      'Memory held by Buffers and ArrayBuffers',
      'arrayBuffers',
    ],
  ] as const;
  for (const [name, help, field] of memoryGauges) {
    new Gauge({
      name,
      help,
      registers: [registry],
      collect() {
        this.set(process.memoryUsage()[field]);
      },
    });
  }

  let collectingRuntime = false;
  return {
    registry,
    httpDuration,
    jobsTotal,
    jobDuration,
    engineErrors,
    analysisMemo,
    likenessChecks,
    likenessRefunds,
    likenessRerollThreshold,
    likenessRerollsAllowed,
    providerCalls,
    providerCostUsd,
    /** The text format's content type, for the scrape answer. */
    contentType: registry.contentType,

    /**
     * Starts prom-client's runtime metrics, once: the event-loop delay monitor and the GC
     * observer run from then on, so only processes that serve /metrics pay for them.
     */
    collectRuntimeMetrics() {
      if (collectingRuntime) return;
      collectingRuntime = true;
      collectDefaultMetrics({ register: registry });
    },

    /**
     * A gauge read when scraped (queue depth). Declared again under the same name (another app in
     * the same process, in tests), it replaces the first. A failed read leaves the last values.
     */
    addGauge(
      name: string,
      help: string,
      labelNames: readonly string[],
      read: () => Promise<{ labels: Labels; value: number }[]>,
    ) {
      registry.removeSingleMetric(name);
      new Gauge({
        name,
        help,
        labelNames,
        registers: [registry],
        async collect() {
          const values = await read().catch(() => undefined);
          if (!values) return;
          this.reset();
          for (const { labels, value } of values) this.set(labels, value);
        },
      });
    },

    render(): Promise<string> {
      return registry.metrics();
    },
  };
}

export type Metrics = ReturnType<typeof createMetrics>;

/** The process's registry (one per process, like Prometheus clients' default registry). */
export const metrics = createMetrics();
