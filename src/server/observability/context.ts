import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * What a log line should say about where it comes from: the request id of the HTTP request
 * being served, or of the request that enqueued the job being run. Jobs carry it in their data,
 * so one id follows a user's action from the request through every job it caused.
 */
export interface LogContext {
  requestId?: string;
  job?: string;
}

const storage = new AsyncLocalStorage<LogContext>();

export function runWithContext<T>(context: LogContext, work: () => T): T {
  return storage.run(context, work);
}

export function currentContext(): LogContext | undefined {
  return storage.getStore();
}

/** For pino's `mixin`: adds the context's fields to every log line written inside it. */
export function logContextMixin(): LogContext {
  return storage.getStore() ?? {};
}
