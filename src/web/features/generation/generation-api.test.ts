import { QueryClient } from '@tanstack/react-query';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiError } from '../../lib/api-client.ts';
import { dispatchAppEvent } from '../../lib/event-stream.ts';
import {
  generationQueryKeys,
  registerGenerationEventHandlers,
  requestFailure,
  type BulkJob,
  type BulkJobDetail,
} from './generation-api.ts';

describe('requestFailure', () => {
  it('sends a refusal to the page that resolves it', () => {
    expect(
      requestFailure(
        new ApiError(402, 'INSUFFICIENT_CREDITS', 'You need more credits to generate images'),
        'preset',
      ),
    ).toEqual({ message: 'You need more credits to generate images', redirectTo: '/buy-credits' });
    expect(
      requestFailure(
        new ApiError(402, 'SUBSCRIPTION_REQUIRED', 'You need an active subscription'),
        'preset',
      ),
    ).toEqual({ message: 'You need an active subscription', redirectTo: '/subscription' });
    expect(requestFailure(new ApiError(403, 'TIER_REQUIRED', 'Pro only'), 'custom')).toEqual({
      message: 'Pro only',
      redirectTo: '/subscription?from=custom-prompt',
    });
    expect(requestFailure(new ApiError(403, 'TIER_REQUIRED', 'Pro only'), 'bulk')).toEqual({
      message: 'Pro only',
      redirectTo: '/subscription',
    });
    expect(requestFailure(new ApiError(401, 'UNAUTHORIZED', 'Please sign in'), 'preset')).toEqual({
      message: 'You must be logged in',
      redirectTo: '/login',
    });
  });

  it("shows other refusals' own words, and the flow's fallback when nothing answered", () => {
    expect(
      requestFailure(new ApiError(409, 'CONFLICT', 'This AI model has not finished'), 'preset'),
    ).toEqual({ message: 'This AI model has not finished' });
    expect(requestFailure(new ApiError(0, 'NETWORK_ERROR', 'offline'), 'preset')).toEqual({
      message: 'Failed to generate image',
    });
    expect(requestFailure(new ApiError(0, 'NETWORK_ERROR', 'offline'), 'bulk')).toEqual({
      message: 'Failed to start bulk generation',
    });
    expect(requestFailure(new ApiError(500, 'INTERNAL', 'boom'), 'bulk')).toEqual({
      message: 'Failed to create bulk job: boom',
    });
    expect(requestFailure(new ApiError(201, 'INVALID_RESPONSE', 'garbled'), 'bulk')).toEqual({
      message: 'Failed to create bulk job - no data returned',
    });
    expect(requestFailure(new Error('?'), 'custom')).toEqual({
      message: 'Failed to generate image',
    });
  });
});

describe('generation events', () => {
  let unregister: (() => void) | undefined;
  afterEach(() => unregister?.());

  const job: BulkJob = {
    id: 'job-1',
    status: 'processing',
    totalImages: 3,
    completedImages: 0,
    failedImages: 0,
    label: '3 styles with Me',
    createdAt: '2026-11-21T10:00:00.000Z',
    completedAt: null,
  };

  it('moves a bulk job forward in place, in its page and in the list', () => {
    unregister = registerGenerationEventHandlers();
    const client = new QueryClient();
    client.setQueryData<BulkJobDetail>(generationQueryKeys.bulkJob(job.id), {
      bulkJob: job,
      generations: [],
    });
    client.setQueryData<BulkJob[]>(generationQueryKeys.bulkJobList, [job]);

    dispatchAppEvent(
      {
        type: 'bulk-job.updated',
        data: {
          bulkJobId: job.id,
          status: 'completed',
          completedImages: 3,
          failedImages: 0,
          totalImages: 3,
        },
      },
      client,
    );

    expect(
      client.getQueryData<BulkJobDetail>(generationQueryKeys.bulkJob(job.id))?.bulkJob,
    ).toMatchObject({ status: 'completed', completedImages: 3 });
    expect(client.getQueryData<BulkJob[]>(generationQueryKeys.bulkJobList)?.[0]).toMatchObject({
      status: 'completed',
      completedImages: 3,
    });
  });

  it('makes the single list stale for a single generation, and the job and favourites for a bulk one', () => {
    unregister = registerGenerationEventHandlers();
    const client = new QueryClient();
    client.setQueryData(generationQueryKeys.list('all'), { pages: [], pageParams: [] });
    client.setQueryData(generationQueryKeys.list('favourites'), { pages: [], pageParams: [] });
    client.setQueryData(generationQueryKeys.bulkJob(job.id), { bulkJob: job, generations: [] });

    dispatchAppEvent(
      {
        type: 'generation.updated',
        data: { generationId: 'g-1', status: 'complete', bulkJobId: job.id },
      },
      client,
    );
    expect(client.getQueryState(generationQueryKeys.bulkJob(job.id))?.isInvalidated).toBe(true);
    expect(client.getQueryState(generationQueryKeys.list('favourites'))?.isInvalidated).toBe(true);
    expect(client.getQueryState(generationQueryKeys.list('all'))?.isInvalidated).toBe(false);

    dispatchAppEvent(
      {
        type: 'generation.updated',
        data: { generationId: 'g-2', status: 'complete', bulkJobId: null },
      },
      client,
    );
    expect(client.getQueryState(generationQueryKeys.list('all'))?.isInvalidated).toBe(true);
  });
});
