import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../tests/helpers/test-app.ts';
import { buildWorkerApp } from '../app.ts';
import { signUp } from '../../../tests/helpers/users.ts';
import { waitFor } from '../../../tests/helpers/studio.ts';

/** What an operator watches: /metrics, and one request id from a request through its jobs. */

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp({ env: { METRICS_TOKEN: 'scrape-secret' } });
});
afterAll(async () => {
  await app?.stop();
});

async function scrape(token = 'scrape-secret') {
  return app.app!.inject({
    method: 'GET',
    url: '/metrics',
    headers: { authorization: `Bearer ${token}` },
  });
}

describe('/metrics', () => {
  it('is hidden without the scrape token', async () => {
    expect((await app.app!.inject({ method: 'GET', url: '/metrics' })).statusCode).toBe(404);
    expect((await scrape('wrong')).statusCode).toBe(404);
  });

  it('reports HTTP latency by route pattern, job counts and durations, and queue depth', async () => {
    // The registry is the process's: other apps of this test process may have counted already.
    const emailsSent = (body: string) =>
      Number(
        /likeness_jobs_total\{queue="email.send",outcome="completed"\} (\d+)/.exec(body)?.[1] ?? 0,
      );
    const sentBefore = emailsSent((await scrape()).body);
    await app.app!.inject({ method: 'GET', url: '/healthz' });
    await app.app!.inject({ method: 'GET', url: '/api/catalog/presets/does-not-exist' });
    const user = await signUp(app);
    await app.app!.inject({
      method: 'POST',
      url: '/api/auth/request-password-reset',
      headers: { origin: app.origin, 'content-type': 'application/json' },
      payload: { email: user.email, redirectTo: '/reset-password' },
    });
    const text = await waitFor(
      async () => (await scrape()).body,
      (body) => emailsSent(body) > sentBefore,
    );
    expect((await scrape()).headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(text).toMatch(
      /likeness_http_request_duration_seconds_count\{method="GET",route="\/healthz",status="200"\} \d+/,
    );
    // The pattern, never the id: ids must not multiply the series.
    expect(text).toContain('route="/api/catalog/presets/:id",status="404"');
    expect(text).not.toContain('does-not-exist');
    expect(text).toMatch(/likeness_job_duration_seconds_count\{queue="email.send"\} \d+/);
    expect(text).toMatch(/likeness_queue_depth\{queue="email.send"\} 0/);
    expect(text).toMatch(/likeness_process_resident_memory_bytes \d+/);
    expect(text).toMatch(/likeness_process_heap_used_bytes \d+/);
    expect(text).toMatch(/likeness_process_array_buffers_bytes \d+/);
  });

  it("reports the runtime: event-loop lag, heap, GC and handles (prom-client's defaults)", async () => {
    // A second app in the same process (a worker's listener here) declares its series again.
    const again = await buildWorkerApp(app.deps);
    await again.ready();
    await again.close();
    const text = (await scrape()).body;
    const number = String.raw`[\d.e+-]+`;
    for (const series of [
      'nodejs_eventloop_lag_seconds',
      'nodejs_eventloop_lag_p99_seconds',
      'nodejs_heap_size_used_bytes',
      'nodejs_active_handles_total',
      'process_resident_memory_bytes',
      'process_cpu_seconds_total',
    ])
      expect(text).toMatch(new RegExp(`^${series} ${number}$`, 'm'));
    expect(text).toMatch(/^nodejs_heap_space_size_used_bytes\{space="old"\} \d+$/m);
    // GC durations by kind: declared from the start, counted once a collection has run.
    expect(text).toContain('# TYPE nodejs_gc_duration_seconds histogram');
    // Every series once all the same.
    expect(text.match(/^# TYPE nodejs_eventloop_lag_seconds /gm)).toHaveLength(1);
    expect(text.match(/^# TYPE likeness_queue_depth /gm)).toHaveLength(1);
  });
});

describe('request ids', () => {
  it('travel from the request into the jobs it enqueued', async () => {
    const user = await signUp(app);
    const response = await app.app!.inject({
      method: 'POST',
      url: '/api/auth/request-password-reset',
      headers: {
        origin: app.origin,
        'content-type': 'application/json',
        'x-request-id': 'req-trace-42',
      },
      payload: { email: user.email, redirectTo: '/reset-password' },
    });
    expect(response.headers['x-request-id']).toBe('req-trace-42');
    // The reset email is queued while the answer goes out, so wait for its job.
    const rows = await waitFor(
      async () => {
        const result = await app.deps.database.db.execute<{ request_id: string }>(
          sql`select data->'_context'->>'requestId' as request_id from pgboss.job
              where name = 'email.send' and data->>'to' = ${user.email}`,
        );
        return (result as unknown as { rows: { request_id: string }[] }).rows;
      },
      (found) => found.length > 0,
    );
    expect(rows.map((row) => row.request_id)).toEqual(['req-trace-42']);
  });
});
