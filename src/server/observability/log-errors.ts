import { stdSerializers } from 'pino';

/**
 * Properties a driver hangs on its errors that are not about the error: node-postgres puts the
 * connection's client on those its pool and pg-boss pass on, and pino's error serializer wrote
 * the whole of it into the log line (its type tables, socket state and the backend's cancel key).
 */
const notAboutTheError = ['client', 'connection'] as const;

/** pino's `err` serializer without what `notAboutTheError` lists. */
export function serializeError(error: Error): ReturnType<typeof stdSerializers.err> {
  const serialized = stdSerializers.err(error);
  if (serialized && typeof serialized === 'object')
    for (const key of notAboutTheError) delete (serialized as Record<string, unknown>)[key];
  return serialized;
}
