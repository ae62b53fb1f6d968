import { z } from 'zod';
import { billingSubscriptionSchema, subscriptionUpdatedEvent } from './billing.ts';
import { generationEvents } from './generation.ts';
import { studioEvents } from './studio.ts';
import { tryOnEvents } from './tryon.ts';

/**
 * What `GET /api/events` streams: one JSON object per message, `{ type, data }`. Each type says
 * what changed and carries the changed record's id and whatever the web app needs to update its
 * cache without a round trip. The server publishes only these (its `publish` takes `AppEvent`);
 * the web app's handlers receive the data of the type they registered for.
 */
export const appEventSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal(generationEvents.generationUpdated),
    data: z.object({
      generationId: z.string(),
      /** A generation status, or 'deleted'. */
      status: z.string(),
      bulkJobId: z.string().nullable(),
    }),
  }),
  z.object({
    type: z.literal(generationEvents.bulkJobUpdated),
    data: z.object({
      bulkJobId: z.string(),
      status: z.string(),
      completedImages: z.number().int(),
      failedImages: z.number().int(),
      totalImages: z.number().int(),
    }),
  }),
  z.object({
    type: z.literal(tryOnEvents.tryOnUpdated),
    data: z.object({ tryOnId: z.string(), status: z.string() }),
  }),
  z.object({
    type: z.literal(studioEvents.photoUpdated),
    data: z.object({ photoId: z.string(), status: z.string() }),
  }),
  z.object({
    type: z.literal(studioEvents.modelUpdated),
    data: z.object({
      modelId: z.string(),
      name: z.string(),
      status: z.string(),
      /** 0-100 while training, when the engine reports progress; else null. */
      progress: z.number().nullable(),
    }),
  }),
  z.object({
    type: z.literal(studioEvents.previewUpdated),
    data: z.object({
      modelId: z.string(),
      previewId: z.string(),
      /** processing, complete, blocked or failed. */
      status: z.string(),
    }),
  }),
  z.object({ type: z.literal(subscriptionUpdatedEvent), data: billingSubscriptionSchema }),
  /** The server's own delivery may have had a gap (its event bus reconnected): refetch all. */
  z.object({ type: z.literal('resync'), data: z.object({}) }),
]);

export type AppEvent = z.infer<typeof appEventSchema>;
export type AppEventType = AppEvent['type'];
/** The event of one type, with its data. */
export type AppEventOf<T extends AppEventType> = Extract<AppEvent, { type: T }>;

/** Sent once when the stream is ready; a second `ready` on the same page means a reconnect. */
export const streamReadyEvent = 'ready';
