import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { runWithContext } from '../../observability/context.ts';
import { appWide } from './app-wide.ts';

/** Fastify's `genReqId`: a valid incoming `x-request-id` (a proxy's trace) is kept, else a new one. */
export function requestIdOf(request: IncomingMessage): string {
  const given = request.headers['x-request-id'];
  return typeof given === 'string' && /^[\w.-]{1,64}$/.test(given) ? given : randomUUID();
}

/** Every answer carries its request id, and log lines and jobs started while serving it too. */
export const requestContext = appWide('request-context', async (app) => {
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    runWithContext({ requestId: request.id }, done);
  });
});
