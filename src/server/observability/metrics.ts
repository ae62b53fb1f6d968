/**
 * A small Prometheus registry (text exposition format 0.0.4): counters and histograms with
 * labels, nothing more. The numbers an operator watches are few and fixed, so a dependency is
 * not worth it.
 */

type Labels = Record<string, string>;

const escapeLabel = (value: string) =>
  value.replaceAll('\\', '\\\\').replaceAll('\n', '\\n').replaceAll('"', '\\"');

function labelText(labels: Labels, extra?: Labels): string {
  const all = { ...labels, ...extra };
  const parts = Object.entries(all).map(([key, value]) => `${key}="${escapeLabel(value)}"`);
  return parts.length > 0 ? `{${parts.join(',')}}` : '';
}

const keyOf = (labels: Labels) => JSON.stringify(Object.entries(labels).sort());

interface Metric {
  render(): string[];
}

export class Counter implements Metric {
  private readonly values = new Map<string, { labels: Labels; value: number }>();
  constructor(
    readonly name: string,
    readonly help: string,
  ) {}

  inc(labels: Labels = {}, by = 1): void {
    const key = keyOf(labels);
    const entry = this.values.get(key) ?? { labels, value: 0 };
    entry.value += by;
    this.values.set(key, entry);
  }

  render(): string[] {
    return [
      `# HELP ${this.name} ${this.help}`,
      `# TYPE ${this.name} counter`,
      ...[...this.values.values()].map((e) => `${this.name}${labelText(e.labels)} ${e.value}`),
    ];
  }
}

export class Histogram implements Metric {
  private readonly values = new Map<
    string,
    { labels: Labels; buckets: number[]; sum: number; count: number }
  >();
  constructor(
    readonly name: string,
    readonly help: string,
    readonly bounds: readonly number[],
  ) {}

  observe(labels: Labels, value: number): void {
    const key = keyOf(labels);
    const entry = this.values.get(key) ?? {
      labels,
      buckets: this.bounds.map(() => 0),
      sum: 0,
      count: 0,
    };
    this.bounds.forEach((bound, index) => {
      if (value <= bound) entry.buckets[index]! += 1;
    });
    entry.sum += value;
    entry.count += 1;
    this.values.set(key, entry);
  }

  render(): string[] {
    const lines = [`# HELP ${this.name} ${this.help}`, `# TYPE ${this.name} histogram`];
    for (const entry of this.values.values()) {
      this.bounds.forEach((bound, index) =>
        lines.push(
          `${this.name}_bucket${labelText(entry.labels, { le: String(bound) })} ${entry.buckets[index]}`,
        ),
      );
      lines.push(`${this.name}_bucket${labelText(entry.labels, { le: '+Inf' })} ${entry.count}`);
      lines.push(`${this.name}_sum${labelText(entry.labels)} ${entry.sum}`);
      lines.push(`${this.name}_count${labelText(entry.labels)} ${entry.count}`);
    }
    return lines;
  }
}

/** A value read when scraped (queue depth). */
export class Gauge implements Metric {
  constructor(
    readonly name: string,
    readonly help: string,
    private readonly read: () => Promise<{ labels: Labels; value: number }[]>,
  ) {}
  private last: { labels: Labels; value: number }[] = [];

  async refresh(): Promise<void> {
    this.last = await this.read();
  }

  render(): string[] {
    return [
      `# HELP ${this.name} ${this.help}`,
      `# TYPE ${this.name} gauge`,
      ...this.last.map((e) => `${this.name}${labelText(e.labels)} ${e.value}`),
    ];
  }
}

const secondsBuckets = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300];

/** The process's metrics: one registry per process (each web or worker process is scraped). */
export function createMetrics() {
  const httpDuration = new Histogram(
    'likeness_http_request_duration_seconds',
    'HTTP request latency by method, route and status',
    secondsBuckets,
  );
  const jobsTotal = new Counter(
    'likeness_jobs_total',
    'Jobs handled by this process, by queue and outcome (completed, failed)',
  );
  const jobDuration = new Histogram(
    'likeness_job_duration_seconds',
    'Job handling time by queue',
    secondsBuckets,
  );
  const engineErrors = new Counter(
    'likeness_engine_errors_total',
    'Errors from image engines, by engine, operation and kind (transient, final)',
  );
  // By name: a gauge declared again (another app in the same process, in tests) replaces the first.
  const gauges = new Map<string, Gauge>();
  return {
    httpDuration,
    jobsTotal,
    jobDuration,
    engineErrors,
    addGauge(gauge: Gauge) {
      gauges.set(gauge.name, gauge);
    },
    async render(): Promise<string> {
      await Promise.all([...gauges.values()].map((gauge) => gauge.refresh().catch(() => {})));
      const memory = process.memoryUsage();
      const lines = [
        ...[httpDuration, jobsTotal, jobDuration, engineErrors, ...gauges.values()].flatMap((m) =>
          m.render(),
        ),
        '# HELP likeness_process_resident_memory_bytes Resident memory of this process',
        '# TYPE likeness_process_resident_memory_bytes gauge',
        `likeness_process_resident_memory_bytes ${memory.rss}`,
        '# HELP likeness_process_heap_used_bytes V8 heap in use',
        '# TYPE likeness_process_heap_used_bytes gauge',
        `likeness_process_heap_used_bytes ${memory.heapUsed}`,
        // Buffers (uploads, images) live outside the V8 heap and are freed only when collected.
        '# HELP likeness_process_array_buffers_bytes Memory held by Buffers and ArrayBuffers',
        '# TYPE likeness_process_array_buffers_bytes gauge',
        `likeness_process_array_buffers_bytes ${memory.arrayBuffers}`,
      ];
      return `${lines.join('\n')}\n`;
    },
  };
}

export type Metrics = ReturnType<typeof createMetrics>;

/** The process's registry (one per process, like Prometheus clients' default registry). */
export const metrics = createMetrics();
