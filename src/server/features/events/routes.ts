import type { FastifyInstance } from 'fastify';
import { type AppEvent, streamReadyEvent } from '../../../common/api/events.ts';
import type { Authenticator } from '../auth/authenticate.ts';
import type { EventBus } from './event-bus.ts';
import { watchStreamSession } from './session-watch.ts';

export interface EventRoutesOptions {
  bus: EventBus;
  authenticator: Authenticator;
  heartbeatMs: number;
  /** When a session ends now, or null when it is over (see `watchStreamSession`). */
  sessionExpiry: (token: string) => Promise<Date | null>;
}

/**
 * One Server-Sent Events stream per browser tab with the signed-in user's events, for as long as
 * the session that opened it lasts: once it is signed out, reset, deleted or expired the stream
 * ends (and the browser's reconnect is refused). A heartbeat comment keeps proxies from closing
 * an idle stream; on shutdown every stream is ended so the browser reconnects to another process.
 */
export async function eventRoutes(
  app: FastifyInstance,
  { bus, authenticator, heartbeatMs, sessionExpiry }: EventRoutesOptions,
) {
  const open = new Set<() => void>();
  // preClose, not onClose: the server waits for open connections before onClose hooks run, so a
  // stream ended there would hold shutdown until every browser went away by itself.
  app.addHook('preClose', async () => {
    for (const end of open) end();
  });

  app.get(
    '/api/events',
    { schema: { tags: ['events'], summary: 'Live updates (text/event-stream)' } },
    async (request, reply) => {
      const { user, session } = await authenticator.requireSession(request);
      reply.hijack();
      const raw = reply.raw;
      raw.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-cache, no-transform',
        connection: 'keep-alive',
        'x-accel-buffering': 'no',
        'x-request-id': request.id,
      });
      const write = (chunk: string) => {
        if (!raw.writableEnded) raw.write(chunk);
      };
      const send = (event: AppEvent) => write(`data: ${JSON.stringify(event)}\n\n`);
      write(`retry: 3000\nevent: ${streamReadyEvent}\ndata: {}\n\n`);

      const unsubscribe = bus.subscribe(user.id, send);
      const unsubscribeResync = bus.onResync(() => send({ type: 'resync', data: {} }));
      const heartbeat = setInterval(() => write(': heartbeat\n\n'), heartbeatMs);
      const end = () => {
        clearInterval(heartbeat);
        unsubscribe();
        unsubscribeResync();
        stopWatching();
        open.delete(end);
        if (!raw.writableEnded) raw.end();
      };
      const stopWatching = watchStreamSession({
        bus,
        userId: user.id,
        session,
        expiryOf: sessionExpiry,
        onEnded: end,
      });
      open.add(end);
      request.raw.on('close', end);
    },
  );
}
