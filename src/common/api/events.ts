import { z } from 'zod';

/**
 * What `GET /api/events` streams: one JSON object per message. `type` names what changed
 * ('generation.updated', 'subscription.updated', ...); `data` carries the changed record's id and
 * whatever the web app needs to update its cache without a round trip.
 */
export const appEventSchema = z.object({
  type: z.string().min(1),
  data: z.record(z.string(), z.unknown()),
});

export type AppEvent = z.infer<typeof appEventSchema>;

/** Sent once when the stream is ready; a second `ready` on the same page means a reconnect. */
export const streamReadyEvent = 'ready';
