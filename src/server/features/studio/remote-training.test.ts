import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UserModel } from '../../../common/api/studio.ts';
import { httpMessages } from '../../../common/messages/http.ts';
import { trainingMessages } from '../../../common/messages/models.ts';
import { photos as photoRules } from '../../../common/product/photos.ts';
import { creditLedger, userModels } from '../../db/schema/index.ts';
import { startTrainingJob, sweepTrainingsJob } from './jobs.ts';
import { startFakeReplicate, type FakeReplicate } from '../../../../tests/fakes/replicate-api.ts';
import { apiCaller, photoFixtures, waitFor } from '../../../../tests/helpers/studio.ts';
import { createTestApp, type TestApp } from '../../../../tests/helpers/test-app.ts';
import { deleteAccount, signUp } from '../../../../tests/helpers/users.ts';

/**
 * Training on a GPU service, through the whole app over real HTTP: the Replicate fake downloads
 * the zip from the app's signed URL and reports back with signed webhooks; a training without
 * news is polled and finally timed out. Whatever happens, a training is paid once and refunded
 * at most once.
 */

let fake: FakeReplicate;

async function listeningApp(env: Record<string, string>): Promise<TestApp> {
  return createTestApp({ listen: true, env: { ...fake.env, ...env } });
}

/**
 * An app listening with `env` over the fake for the enclosing block's tests (started before them,
 * stopped after), handed with its API caller to `started`.
 */
function withListeningApp(
  env: Record<string, string>,
  started: (running: { app: TestApp; api: ReturnType<typeof apiCaller> }) => void,
) {
  let app: TestApp | undefined;
  beforeAll(async () => {
    app = await listeningApp(env);
    started({ app, api: apiCaller(app) });
  });
  afterAll(async () => {
    await app?.stop();
  });
}

async function ledgerOf(app: TestApp, modelId: string) {
  return app.deps.database.db
    .select({
      reason: creditLedger.reason,
      delta: creditLedger.delta,
      free: creditLedger.freeTrainingsDelta,
    })
    .from(creditLedger)
    .where(eq(creditLedger.reference, `model:${modelId}`));
}

/** A Pro user with 8 validated photos creates a model; answers it and the fake's training id. */
async function startTraining(app: TestApp, api: ReturnType<typeof apiCaller>) {
  const user = await signUp(app);
  await api.buyPlan(user, 'price_pro');
  for (let n = 1; n <= photoRules.min; n += 1) await api.upload(user, photoFixtures.personA(n));
  await api.settledDraft(user);
  const created = await api.call<{ model: UserModel }>(user, 'POST', '/api/studio/models', {
    name: 'Remote',
    gender: 'man',
  });
  expect(created.status).toBe(201);
  const model = await api.modelWhen(user, created.body.model.id, (m) => m.status === 'training');
  const trainingId = await waitFor(async () => {
    const [row] = await app.deps.database.db
      .select({ reference: userModels.engineReference })
      .from(userModels)
      .where(eq(userModels.id, model.id));
    return row?.reference ?? null;
  }, Boolean);
  return { user, model, trainingId: trainingId! };
}

beforeAll(async () => {
  fake = await startFakeReplicate();
});
afterAll(async () => {
  await fake?.close();
});

describe('Replicate training reported by signed webhooks', () => {
  let app: TestApp;
  let api: ReturnType<typeof apiCaller>;
  // Polling is off (an hour), so only webhooks can move a training on here.
  withListeningApp({ TRAINING_POLL_SECONDS: '3600' }, (started) => ({ app, api } = started));

  it('sends the zip by a signed URL, trains, and completes once even when the webhook is replayed', async () => {
    const { user, model, trainingId } = await startTraining(app, api);
    const sent = fake.training(trainingId)!;
    expect(sent.input).toMatchObject({ trigger_word: 'TOK', steps: 1000 });
    expect(String((sent.input as { input_images: string }).input_images)).toMatch(
      new RegExp(
        `^${app.config.publicUrl}/api/files/users/${user.id}/image_zips/.+_images\\.zip\\?`,
      ),
    );

    // The fake downloads the zip through the app (a real zip of the 8 photos), then succeeds.
    await fake.completeTraining(trainingId);
    const complete = await api.modelWhen(user, model.id, (m) => m.status === 'complete');
    expect(complete.failureReason).toBeNull();
    expect(fake.deliveries.every((delivery) => delivery.status === 200)).toBe(true);

    const completedMessage = fake.messages.findLast((m) => m.body.includes(trainingId))!;
    const replay = await fake.redeliver(completedMessage.id);
    expect(replay.status).toBe(200);
    const after = (await api.models(user)).models.find((m) => m.id === model.id)!;
    expect(after.completedAt).toBe(complete.completedAt);
    expect(await ledgerOf(app, model.id)).toEqual([{ reason: 'training', delta: 0, free: -1 }]);
  });

  it('marks a failed training failed with its reason and refunds once, replay or not', async () => {
    const { user, model, trainingId } = await startTraining(app, api);
    expect(await api.subscription(user)).toMatchObject({ monthlyFreeTrainingsLeft: 0 });
    await fake.failTraining(trainingId, 'CUDA out of memory');
    const failed = await api.modelWhen(user, model.id, (m) => m.status === 'failed');
    expect(failed.failureReason).toBe('CUDA out of memory');
    const message = fake.messages.findLast((m) => m.body.includes(trainingId))!;
    await fake.redeliver(message.id);
    await fake.redeliver(message.id);
    expect(await ledgerOf(app, model.id)).toEqual([
      { reason: 'training', delta: 0, free: -1 },
      { reason: 'refund', delta: 0, free: 1 },
    ]);
    expect(await api.subscription(user)).toMatchObject({
      monthlyFreeTrainingsLeft: 1,
      credits: 500,
    });
    expect((await api.models(user)).trainingInProgress).toBe(false);
  });

  it('follows Retry-After when Replicate answers 429, beyond what the retries would bear, and is paid once', async () => {
    const trainingsPost = /^POST \/v1\/models\/[^/]+\/[^/]+\/versions\/[^/]+\/trainings$/;
    // More refusals in a row than the start job has attempts: used up, they would fail it.
    const refusals = startTrainingJob.retry.retryLimit + 2;
    for (let n = 0; n < refusals; n += 1)
      fake.failNext({ match: trainingsPost, status: 429, retryAfter: 1 });
    const { model } = await startTraining(app, api);
    const posts = fake.requests.filter(
      (r) =>
        trainingsPost.test(`${r.method} ${r.path}`) &&
        String((r.body as { destination?: string }).destination).endsWith(model.id.toLowerCase()),
    );
    expect(posts).toHaveLength(refusals + 1);
    expect(await ledgerOf(app, model.id)).toEqual([{ reason: 'training', delta: 0, free: -1 }]);
  }, 90_000);

  it('refuses a forged or stale webhook and changes nothing', async () => {
    const { user, model, trainingId } = await startTraining(app, api);
    const body = JSON.stringify({
      ...fake.training(trainingId),
      status: 'succeeded',
      output: { version: 'x/y:z' },
    });
    const forged = await fetch(`${app.url}/api/webhooks/training/replicate`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'webhook-id': 'msg_forged',
        'webhook-timestamp': String(Math.floor(Date.now() / 1000)),
        'webhook-signature': 'v1,bm90IGEgc2lnbmF0dXJl',
      },
      body,
    });
    expect(forged.status).toBe(401);
    expect(((await forged.json()) as { error: { message: string } }).error.message).toBe(
      httpMessages.webhookNotVerified,
    );
    await fake.completeTraining(trainingId);
    const message = fake.messages.findLast((m) => m.body.includes(trainingId))!;
    const stale = await fake.redeliver(message.id, {
      timestamp: Math.floor(Date.now() / 1000) - 600,
    });
    expect(stale.status).toBe(401);
    // The genuine delivery (sent by completeTraining) is what completed it.
    await api.modelWhen(user, model.id, (m) => m.status === 'complete');
    // Another engine's address does not exist here.
    const other = await fetch(`${app.url}/api/webhooks/training/fal`, {
      method: 'POST',
      body: '{}',
    });
    expect(other.status).toBe(404);
  });
});

describe('a start answered with an error after Replicate had created the training', () => {
  let app: TestApp;
  let api: ReturnType<typeof apiCaller>;
  withListeningApp({ TRAINING_POLL_SECONDS: '3600' }, (started) => ({ app, api } = started));

  /** The gateway's 502 hides a created training; the retried start creates a second one. */
  async function startTwice() {
    fake.failNext({
      match: /^POST \/v1\/models\/[^/]+\/[^/]+\/versions\/[^/]+\/trainings$/,
      status: 502,
      afterHandling: true,
    });
    const started = await startTraining(app, api);
    const ofModel = fake
      .trainings()
      .filter((training) => String(training.destination).endsWith(started.model.id.toLowerCase()));
    expect(ofModel).toHaveLength(2);
    const lostId = String(ofModel.find((training) => training.id !== started.trainingId)!.id);
    return { ...started, lostId };
  }

  const statusAtReplicate = (id: string) =>
    waitFor(
      async () => fake.training(id)?.status,
      (status) => status === 'canceled' || status === 'succeeded',
    );

  it('cancels the lost training when it starts, and the tracked one completes the model', async () => {
    const { user, model, trainingId, lostId } = await startTwice();
    await fake.startTraining(lostId);
    expect(await statusAtReplicate(lostId)).toBe('canceled');

    await fake.completeTraining(trainingId);
    const complete = await api.modelWhen(user, model.id, (m) => m.status === 'complete');
    expect(complete.failureReason).toBeNull();
    expect(await ledgerOf(app, model.id)).toEqual([{ reason: 'training', delta: 0, free: -1 }]);
  }, 60_000);

  it('keeps the lost training when it succeeds first, and cancels the other', async () => {
    const { user, model, trainingId, lostId } = await startTwice();
    // Its start was not heard (else it would have been cancelled then), only its success.
    fake.loseWebhooks = true;
    try {
      await fake.startTraining(lostId);
    } finally {
      fake.loseWebhooks = false;
    }
    await fake.completeTraining(lostId);
    const complete = await api.modelWhen(user, model.id, (m) => m.status === 'complete');
    expect(complete.failureReason).toBeNull();
    expect(await statusAtReplicate(trainingId)).toBe('canceled');
    const [row] = await app.deps.database.db
      .select({ reference: userModels.engineReference, weights: userModels.weights })
      .from(userModels)
      .where(eq(userModels.id, model.id));
    expect(row).toMatchObject({ reference: lostId });
    expect(row!.weights).toMatch(/^likeness-test\/.+:.+/);
    expect(await ledgerOf(app, model.id)).toEqual([{ reason: 'training', delta: 0, free: -1 }]);
  }, 60_000);
});

describe('Replicate training without news', () => {
  let app: TestApp;
  let api: ReturnType<typeof apiCaller>;
  withListeningApp(
    { TRAINING_POLL_SECONDS: '1', TRAINING_TIMEOUT_MINUTES: '0.15' },
    (started) => ({ app, api } = started),
  );

  it('is polled: a lost webhook does not leave it training', async () => {
    const { user, model, trainingId } = await startTraining(app, api);
    // Succeeds at the provider, but the webhook never reaches us.
    fake.loseWebhooks = true;
    try {
      await fake.completeTraining(trainingId);
      await api.modelWhen(user, model.id, (m) => m.status === 'complete');
    } finally {
      fake.loseWebhooks = false;
    }
  });

  it('times out, fails with the reason, cancels it at Replicate and refunds once', async () => {
    const { user, model, trainingId } = await startTraining(app, api);
    const failed = await api.modelWhen(user, model.id, (m) => m.status === 'failed', 60_000);
    expect(failed.failureReason).toBe(trainingMessages.timedOut);
    // The GPU is not left training for nothing: cancelled there just after the failure commits.
    expect(
      await waitFor(
        async () => fake.training(trainingId)?.status,
        (status) => status === 'canceled',
      ),
    ).toBe('canceled');
    await new Promise((resolve) => setTimeout(resolve, 2500)); // more polls: still one refund
    expect(await ledgerOf(app, model.id)).toEqual([
      { reason: 'training', delta: 0, free: -1 },
      { reason: 'refund', delta: 0, free: 1 },
    ]);
    const refunded = await app.deps.database.db
      .select()
      .from(creditLedger)
      .where(and(eq(creditLedger.userId, user.id), eq(creditLedger.reason, 'refund')));
    expect(refunded).toHaveLength(1);
  });
});

describe('the sweep of trainings without news', () => {
  let app: TestApp;
  let api: ReturnType<typeof apiCaller>;
  // No polls: only the sweep (sent by the test, as its cron would) can end these trainings.
  withListeningApp(
    { TRAINING_POLL_SECONDS: '3600', TRAINING_TIMEOUT_MINUTES: '0.05' },
    (started) => ({ app, api } = started),
  );

  /** Runs the sweep through the job queue until the model has ended. */
  async function sweepUntilEnded(user: Awaited<ReturnType<typeof signUp>>, modelId: string) {
    return waitFor(
      async () => {
        await app.deps.queue.send(sweepTrainingsJob, {});
        return (await api.models(user)).models.find((m) => m.id === modelId)!;
      },
      (m) => m.status === 'failed' || m.status === 'complete',
      30_000,
    );
  }

  async function expectRefundedOnce(modelId: string) {
    expect(await ledgerOf(app, modelId)).toEqual([
      { reason: 'training', delta: 0, free: -1 },
      { reason: 'refund', delta: 0, free: 1 },
    ]);
  }

  it('fails and refunds once a training whose start died before Replicate answered', async () => {
    // The worker is stuck (as if it died) after marking the model training, before the
    // reference was saved: nothing else would ever look at this model again.
    fake.failNext({
      match: /^POST \/v1\/models\/[^/]+\/[^/]+\/versions\/[^/]+\/trainings$/,
      hang: true,
    });
    const user = await signUp(app);
    await api.buyPlan(user, 'price_pro');
    for (let n = 1; n <= photoRules.min; n += 1) await api.upload(user, photoFixtures.personA(n));
    await api.settledDraft(user);
    const created = await api.call<{ model: UserModel }>(user, 'POST', '/api/studio/models', {
      name: 'Stuck',
      gender: 'woman',
    });
    const modelId = created.body.model.id;
    await api.modelWhen(user, modelId, (m) => m.status === 'training');
    const [row] = await app.deps.database.db
      .select({ reference: userModels.engineReference })
      .from(userModels)
      .where(eq(userModels.id, modelId));
    expect(row!.reference).toBeNull();

    const ended = await sweepUntilEnded(user, modelId);
    expect(ended).toMatchObject({ status: 'failed', failureReason: trainingMessages.timedOut });
    expect((await api.models(user)).trainingInProgress).toBe(false);
    await expectRefundedOnce(modelId);
    // Later sweeps change nothing.
    await app.deps.queue.send(sweepTrainingsJob, {});
    await app.deps.queue.send(sweepTrainingsJob, {});
    await waitFor(
      async () => (await app.deps.queue.depth())[sweepTrainingsJob.name],
      (n) => n === 0,
    );
    await expectRefundedOnce(modelId);
  });

  it('cancels at Replicate a training that went silent, fails it and refunds once', async () => {
    const { user, model, trainingId } = await startTraining(app, api);
    const ended = await sweepUntilEnded(user, model.id);
    expect(ended).toMatchObject({ status: 'failed', failureReason: trainingMessages.timedOut });
    // Cancelled right after the failure is recorded.
    expect(
      await waitFor(
        async () => fake.training(trainingId)?.status,
        (status) => status !== 'starting',
      ),
    ).toBe('canceled');
    expect(
      fake.requests.filter(
        (r) => r.method === 'POST' && r.path === `/v1/trainings/${trainingId}/cancel`,
      ),
    ).toHaveLength(1);
    await expectRefundedOnce(model.id);
  });

  it('completes a training that succeeded at Replicate although its news was lost', async () => {
    const { user, model, trainingId } = await startTraining(app, api);
    fake.loseWebhooks = true;
    try {
      await fake.completeTraining(trainingId);
    } finally {
      fake.loseWebhooks = false;
    }
    const ended = await sweepUntilEnded(user, model.id);
    expect(ended).toMatchObject({ status: 'complete', failureReason: null });
    expect(await ledgerOf(app, model.id)).toEqual([{ reason: 'training', delta: 0, free: -1 }]);
  });
});

describe('deleting a model that is training at Replicate', () => {
  let app: TestApp;
  let api: ReturnType<typeof apiCaller>;
  withListeningApp({ TRAINING_POLL_SECONDS: '3600' }, (started) => ({ app, api } = started));

  it('cancels the training there', async () => {
    const { user, model, trainingId } = await startTraining(app, api);
    const deleted = await api.call(user, 'DELETE', `/api/studio/models/${model.id}`);
    expect(deleted.status).toBe(204);
    expect(fake.training(trainingId)?.status).toBe('canceled');
    expect((await api.models(user)).trainingInProgress).toBe(false);
  });

  it('deletes a trained model there too, without making the user wait when Replicate fails', async () => {
    const { user, model, trainingId } = await startTraining(app, api);
    await fake.completeTraining(trainingId);
    await api.modelWhen(user, model.id, (m) => m.status === 'complete');
    const destination = `${fake.owner}/likeness-${model.id.toLowerCase()}`;
    expect(fake.versions(destination)).toHaveLength(1);
    // Replicate fails the first attempt: the user's deletion is done at once all the same.
    fake.failNext({ match: `GET /v1/models/${destination}/versions`, status: 500 });
    const deleted = await api.call(user, 'DELETE', `/api/studio/models/${model.id}`);
    expect(deleted.status).toBe(204);
    expect((await api.models(user)).models).toEqual([]);
    expect(fake.model(destination)).toBeDefined();
    // The job tries again: the version (the trained LoRA) and the model go.
    await waitFor(
      async () => fake.model(destination),
      (found) => found === undefined,
      45_000,
    );
    expect(fake.versions(destination)).toEqual([]);
    expect(fake.deletedModels).toContain(destination);
  }, 60_000);

  it('deletes the trained models there when the account is deleted', async () => {
    const { user, model, trainingId } = await startTraining(app, api);
    await fake.completeTraining(trainingId);
    await api.modelWhen(user, model.id, (m) => m.status === 'complete');
    const destination = `${fake.owner}/likeness-${model.id.toLowerCase()}`;
    const response = await deleteAccount(app, user);
    expect(response.statusCode).toBe(204);
    await waitFor(
      async () => fake.model(destination),
      (found) => found === undefined,
    );
    expect(fake.deletedModels).toContain(destination);
  });
});
