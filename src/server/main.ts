import { pino } from 'pino';
import { ConfigError, loadConfig } from './config.ts';
import { logContextMixin } from './observability/context.ts';
import { serializeError } from './observability/log-errors.ts';
import { start } from './runtime.ts';

try {
  const config = loadConfig();
  const logger = pino({
    level: config.logLevel,
    base: { role: config.role },
    // Every line written while serving a request or running a job says which request it was.
    mixin: logContextMixin,
    serializers: { err: serializeError },
  });
  const running = await start(config, logger);
  logger.info({ url: running.url, database: running.deps.database.kind }, 'Likeness is running');
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.once(signal, () => {
      logger.info({ signal }, 'shutting down');
      const forced = setTimeout(() => process.exit(1), config.shutdownTimeoutMs + 5_000).unref();
      running.stop().then(
        () => {
          clearTimeout(forced);
          process.exit(0);
        },
        (error: unknown) => {
          logger.error({ err: error }, 'shutdown failed');
          process.exit(1);
        },
      );
    });
  }
} catch (error) {
  if (error instanceof ConfigError) {
    console.error(error.message);
    process.exit(78);
  }
  throw error;
}
