import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type FakeReplicate,
  replicateConfig,
  signReplicateWebhook,
  startFakeReplicate,
} from '../../../../tests/fakes/replicate-api.ts';
import { startWebhookReceiver } from '../../../../tests/fakes/provider-fake-kit.ts';
import { engineError } from '../../../../tests/helpers/provider-engines.ts';
import {
  describeTrainingProviderContract,
  expectReadWithin300s,
  trainingFixtures,
  withHeaders,
} from '../../../../tests/helpers/training-provider-contract.ts';
import type { ReplicateConfig } from '../../config.ts';
import { createReplicateTrainingEngine, progressFromLogs } from './replicate-training.ts';
import type { TrainingEngine } from './training-engine.ts';

let fake: FakeReplicate;
let config: ReplicateConfig;
let engine: TrainingEngine;

const fixtures = trainingFixtures({
  referenceField: 'id',
  gender: 'woman',
  webhookUrl: (receiverUrl) => `${receiverUrl}/api/studio/webhooks/replicate`,
});
const { files, trainingRequest, deliveriesFor } = fixtures;
const receiver = () => fixtures.receiver();

beforeAll(async () => {
  fake = await startFakeReplicate();
  config = replicateConfig(fake);
  engine = createReplicateTrainingEngine(config);
});
afterAll(async () => {
  await fake?.close();
});

describe('Replicate training: start', () => {
  it('creates the private destination model, then the training with our inputs and webhook', async () => {
    const request = trainingRequest();
    const before = fake.requests.length;
    const { reference } = await engine.start(request);

    const sent = fake.requests.slice(before);
    const destination = `likeness-${request.modelId}`;
    expect(sent.map((r) => `${r.method} ${r.path}`)).toEqual([
      `GET /v1/models/${fake.owner}/${destination}`,
      'POST /v1/models',
      `POST /v1/models/ostris/flux-dev-lora-trainer/versions/${fake.trainer.version}/trainings`,
    ]);
    for (const r of sent) expect(r.headers.authorization).toBe(`Bearer ${fake.apiToken}`);
    expect(sent[1]!.body).toMatchObject({
      owner: fake.owner,
      name: destination,
      visibility: 'private',
    });
    expect(sent[2]!.headers['content-type']).toBe('application/json');
    expect(sent[2]!.body).toEqual({
      destination: `${fake.owner}/${destination}`,
      input: {
        input_images: fixtures.zipUrl(),
        trigger_word: 'lkns7x',
        steps: 1000,
        lora_rank: 16,
        learning_rate: 0.0004,
        batch_size: 1,
        resolution: '512,768,1024',
        autocaption: true,
        optimizer: 'adamw8bit',
      },
      webhook: request.webhookUrl,
      webhook_events_filter: ['start', 'completed'],
    });
    expect(fake.training(reference)).toMatchObject({ status: 'starting' });
    expect(fake.model(`${fake.owner}/${destination}`)).toMatchObject({ visibility: 'private' });
  });

  it('reuses the destination when a start is retried, and sends no webhook when there is none', async () => {
    const request = trainingRequest({ webhookUrl: null });
    await engine.start(request);
    const before = fake.requests.length;
    const { reference } = await engine.start(request);
    expect(fake.requests.slice(before).map((r) => r.method)).toEqual(['GET', 'POST']);
    const body = fake.requests.at(-1)!.body as Record<string, unknown>;
    expect(body).not.toHaveProperty('webhook');
    expect(body).not.toHaveProperty('webhook_events_filter');
    await fake.completeTraining(reference);
    expect(deliveriesFor(reference)).toEqual([]);
  });
});

describe('Replicate training: status', () => {
  it('maps starting, processing (with step progress) and succeeded', async () => {
    const { reference } = await engine.start(trainingRequest());
    expect(await engine.status(reference)).toEqual({ status: 'running', progress: 0 });

    await fake.startTraining(reference);
    expect(files().hits.get('/signed/photos.zip')).toBeGreaterThan(0);
    // Only the captioning bar (12/12) so far: not training progress.
    expect(await engine.status(reference)).toEqual({ status: 'running' });
    fake.logStep(reference, 250);
    expect(await engine.status(reference)).toEqual({ status: 'running', progress: 25 });
    fake.logStep(reference, 1000);
    expect(await engine.status(reference)).toEqual({ status: 'running', progress: 99 });

    await fake.completeTraining(reference);
    const output = fake.training(reference)!.output as { version: string };
    expect(output.version).toMatch(/^likeness-test\/likeness-mdl_[0-9a-f]+:[0-9a-f]{64}$/);
    expect(await engine.status(reference)).toEqual({
      status: 'succeeded',
      weights: output.version,
    });
    const get = fake.requests.findLast((r) => r.path === `/v1/trainings/${reference}`)!;
    expect(get.method).toBe('GET');
    expect(get.headers.authorization).toBe(`Bearer ${fake.apiToken}`);
  });

  it('maps failed with the trainer error, and canceled', async () => {
    const failed = await engine.start(trainingRequest());
    await fake.failTraining(failed.reference, 'CUDA out of memory');
    expect(await engine.status(failed.reference)).toEqual({
      status: 'failed',
      error: 'CUDA out of memory',
    });

    const canceled = await engine.start(trainingRequest());
    await engine.cancel!(canceled.reference);
    const cancel = fake.requests.at(-1)!;
    expect(`${cancel.method} ${cancel.path}`).toBe(
      `POST /v1/trainings/${canceled.reference}/cancel`,
    );
    expect(cancel.headers.authorization).toBe(`Bearer ${fake.apiToken}`);
    expect(await engine.status(canceled.reference)).toEqual({
      status: 'failed',
      error: 'The training was canceled',
    });
  });

  it('reads progress from "step N/M" lines and from trainer bars, ignoring other totals', () => {
    expect(progressFromLogs('step 250/1000\nstep 500/1000\n', 1000)).toBe(50);
    expect(progressFromLogs('Captioning: 100%|███| 12/12 [00:07<00:00]', 1000)).toBeUndefined();
    expect(progressFromLogs(' 10%|█  | 100/1000 [00:20<03:00]', undefined)).toBe(10);
    expect(progressFromLogs(null, 1000)).toBeUndefined();
  });
});

describe('Replicate training: webhooks', () => {
  /** A training run to completion, and the signed deliveries it caused. */
  async function completedTraining() {
    const { reference } = await engine.start(trainingRequest());
    await fake.completeTraining(reference);
    const received = deliveriesFor(reference);
    expect(received).toHaveLength(2);
    return { reference, start: received[0]!, completed: received[1]! };
  }

  it('accepts the signed start and completed deliveries and reads them', async () => {
    const { reference, start, completed } = await completedTraining();
    expect(start.headers['webhook-signature']).toMatch(/^v1,/);
    expect(await engine.readWebhook(start)).toEqual({
      reference,
      state: { status: 'running' },
    });
    expect(await engine.readWebhook(completed)).toEqual({
      reference,
      state: {
        status: 'succeeded',
        weights: (fake.training(reference)!.output as { version: string }).version,
      },
    });
  });

  it('accepts a redelivery, which keeps its webhook-id', async () => {
    const { reference, completed } = await completedTraining();
    const id = completed.headers['webhook-id'] as string;
    await fake.redeliver(id);
    const again = receiver().received.at(-1)!;
    expect(again.headers['webhook-id']).toBe(id);
    expect(again.rawBody.equals(completed.rawBody)).toBe(true);
    expect((await engine.readWebhook(again))?.reference).toBe(reference);
  });

  it('reads a failed training from its completed delivery', async () => {
    const { reference } = await engine.start(trainingRequest());
    await fake.failTraining(reference, 'Training diverged');
    const [completed] = deliveriesFor(reference);
    expect(await engine.readWebhook(completed!)).toEqual({
      reference,
      state: { status: 'failed', error: 'Training diverged' },
    });
  });

  it('rejects a forged signature, a wrong secret, a stale timestamp and a tampered body', async () => {
    const { completed } = await completedTraining();
    const id = completed.headers['webhook-id'] as string;
    const signature = completed.headers['webhook-signature'] as string;

    const forged = `v1,${Buffer.from(randomBytes(32)).toString('base64')}`;
    expect(
      await engine.readWebhook(withHeaders(completed, { 'webhook-signature': forged })),
    ).toBeNull();
    // A valid signature of another message id.
    expect(
      await engine.readWebhook(withHeaders(completed, { 'webhook-id': 'msg_other' })),
    ).toBeNull();

    const otherSecret = `whsec_${randomBytes(24).toString('base64')}`;
    const strangerEngine = createReplicateTrainingEngine({ ...config, webhookSecret: otherSecret });
    expect(await strangerEngine.readWebhook(completed)).toBeNull();
    await fake.redeliver(id, { secret: otherSecret });
    expect(await engine.readWebhook(receiver().received.at(-1)!)).toBeNull();

    await expectReadWithin300s(
      (timestamp) => fake.redeliver(id, { timestamp }),
      () => engine.readWebhook(receiver().received.at(-1)!),
    );

    const tampered = Buffer.from(completed.rawBody);
    const text = tampered.toString().replace('"succeeded"', '"failed"   ');
    expect(text).not.toBe(completed.rawBody.toString());
    expect(await engine.readWebhook({ ...completed, rawBody: Buffer.from(text) })).toBeNull();

    const { 'webhook-timestamp': _dropped, ...withoutTimestamp } = completed.headers;
    expect(await engine.readWebhook({ ...completed, headers: withoutTimestamp })).toBeNull();
    // The original still passes: nothing above was accepted by accident.
    expect(signature).toMatch(/^v1,/);
    expect(await engine.readWebhook(completed)).not.toBeNull();
  });

  it('accepts one of several signatures (a secret rotation) and ignores non-training bodies', async () => {
    const { completed } = await completedTraining();
    const signature = completed.headers['webhook-signature'] as string;
    expect(
      await engine.readWebhook(
        withHeaders(completed, { 'webhook-signature': `v1,bm9wZQ== ${signature}` }),
      ),
    ).not.toBeNull();

    const prediction = JSON.stringify({
      id: 'pred123',
      status: 'succeeded',
      input: { prompt: 'a portrait of lkns7x' },
      output: ['https://replicate.delivery/out-0.jpg'],
    });
    const timestamp = Math.floor(Date.now() / 1000);
    expect(
      await engine.readWebhook({
        headers: {
          'webhook-id': 'msg_prediction',
          'webhook-timestamp': String(timestamp),
          'webhook-signature': signReplicateWebhook(
            fake.webhookSecret,
            'msg_prediction',
            timestamp,
            prediction,
          ),
        },
        query: {},
        rawBody: Buffer.from(prediction),
      }),
    ).toBeNull();
  });
});

describe('Replicate training: deleting the weights of a deleted model', () => {
  /** A model trained twice (a duplicate training wrote a second version). */
  async function trainedTwice() {
    const request = trainingRequest();
    const first = await engine.start(request);
    await fake.completeTraining(first.reference);
    const second = await engine.start(request);
    await fake.completeTraining(second.reference);
    const state = await engine.status(first.reference);
    const model = `${fake.owner}/likeness-${request.modelId.toLowerCase()}`;
    expect(fake.versions(model)).toHaveLength(2);
    return {
      trained: {
        modelId: request.modelId,
        reference: first.reference,
        weights: state.status === 'succeeded' ? state.weights : null,
      },
      model,
    };
  }

  it('deletes every version of the destination, then the model; once gone, done', async () => {
    const { trained, model } = await trainedTwice();
    const versions = fake.versions(model);
    const from = fake.requests.length;
    await engine.deleteWeights!(trained);
    expect(fake.requests.slice(from).map((r) => `${r.method} ${r.path}`)).toEqual([
      `GET /v1/models/${model}/versions`,
      ...versions.reverse().map((id) => `DELETE /v1/models/${model}/versions/${id}`),
      `DELETE /v1/models/${model}`,
    ]);
    expect(fake.model(model)).toBeUndefined();
    expect(fake.deletedModels).toContain(model);
    // The trained version cannot run any more.
    const prediction = await fetch(`${fake.baseUrl}/predictions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${fake.apiToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ version: trained.weights, input: { prompt: 'a photo of lkns7x' } }),
    });
    expect(prediction.status).toBeGreaterThanOrEqual(400);
    // Asked again (a retried job): already gone is done.
    await expect(engine.deleteWeights!(trained)).resolves.toBeUndefined();
  });

  it('asks again later while Replicate is still deleting the versions', async () => {
    const { trained, model } = await trainedTwice();
    fake.slowVersionDeletion = true;
    try {
      const pending = await engineError(engine.deleteWeights!(trained));
      expect(pending.transient).toBe(true);
      expect(fake.model(model)).toBeDefined();
      fake.finishVersionDeletions();
      await engine.deleteWeights!(trained);
      expect(fake.model(model)).toBeUndefined();
    } finally {
      fake.slowVersionDeletion = false;
    }
  });

  it('deletes the empty destination of a training that failed, and is refused with a wrong token', async () => {
    const request = trainingRequest();
    const { reference } = await engine.start(request);
    await fake.failTraining(reference, 'CUDA out of memory');
    const model = `${fake.owner}/likeness-${request.modelId.toLowerCase()}`;
    const unauthenticated = createReplicateTrainingEngine({ ...config, apiToken: 'r8_wrong' });
    const refused = await engineError(
      unauthenticated.deleteWeights!({ modelId: request.modelId, reference, weights: null }),
    );
    expect(refused.transient).toBe(false);
    await engine.deleteWeights!({ modelId: request.modelId, reference, weights: null });
    expect(fake.model(model)).toBeUndefined();
  });
});

describe('Replicate training: errors', () => {
  it('treats 500 and a malformed JSON answer as transient', async () => {
    const { reference } = await engine.start(trainingRequest());
    fake.failNext({ status: 500, match: '/v1/trainings/' });
    const serverError = await engineError(engine.status(reference));
    expect(serverError.transient).toBe(true);
    expect(serverError.message).toContain('500');

    fake.failNext({ malformed: true, match: '/v1/trainings/' });
    expect((await engineError(engine.status(reference))).transient).toBe(true);

    fake.failNext({ malformed: true, match: /\/trainings$/ });
    expect((await engineError(engine.start(trainingRequest()))).transient).toBe(true);
  });

  it('treats a missing destination, invalid input and a foreign owner as final, with the detail', async () => {
    fake.failNext({
      status: 404,
      detail: 'The specified training destination does not exist',
      match: /\/trainings$/,
    });
    const missing = await engineError(engine.start(trainingRequest()));
    expect(missing.transient).toBe(false);
    expect(missing.message).toBe(
      'Replicate answered 404: The specified training destination does not exist',
    );

    const invalid = await engineError(engine.start(trainingRequest({ steps: 7000 })));
    expect(invalid.transient).toBe(false);
    expect(invalid.message).toContain('input.steps: Must be less than or equal to 6000');

    const foreign = createReplicateTrainingEngine({ ...config, owner: 'someone-else' });
    const refused = await engineError(foreign.start(trainingRequest()));
    expect(refused.transient).toBe(false);
    expect(refused.message).toContain(
      'You do not have permission to create models for someone-else',
    );
  });

  it('treats an unreachable host as transient', async () => {
    const closed = await startWebhookReceiver();
    await closed.close();
    const nowhere = createReplicateTrainingEngine({ ...config, baseUrl: `${closed.url}/v1` });
    const unreachable = await engineError(nowhere.status('whatever'));
    expect(unreachable).toMatchObject({ transient: true });
    expect(unreachable.message).toContain('could not be reached');
  });
});

describeTrainingProviderContract(
  {
    provider: 'Replicate',
    engine: (options) => (options ? createReplicateTrainingEngine(config, options) : engine),
    deniedWithWrongKey: () =>
      createReplicateTrainingEngine({ ...config, apiToken: 'r8_wrong' }).status('anything'),
    unknown: { reference: 'nosuchtraining', message: 'Replicate answered 404: Not found.' },
    hang: { match: '/v1/trainings/', message: 'did not answer' },
    failNext: (failure) => fake.failNext(failure),
    completeTraining: (reference) => fake.completeTraining(reference),
    zipErrors: {
      expired: 'Failed to download input_images (download failed with HTTP 403)',
      notZip: 'input_images must be a zip file',
    },
    throttled: { match: /\/trainings$/, retryAfter: 7, message: 'Request was throttled' },
  },
  fixtures,
);
