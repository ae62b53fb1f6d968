import { metrics } from '../../observability/metrics.ts';
import { appWide } from './app-wide.ts';

/** Each answer's duration on `/metrics`, by method, route pattern and status. */
export const requestMetrics = appWide('request-metrics', async (app) => {
  app.addHook('onResponse', (request, reply, done) => {
    metrics.httpDuration.observe(
      {
        method: request.method,
        // The route's pattern, not the URL: ids must not multiply the series.
        route: request.routeOptions.url ?? 'unmatched',
        status: String(reply.statusCode),
      },
      reply.elapsedTime / 1000,
    );
    done();
  });
});
