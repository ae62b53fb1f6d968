import { generateKeyPairSync } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeFal, falConfig, startFakeFal } from '../../../../tests/fakes/fal-api.ts';
import { startWebhookReceiver } from '../../../../tests/fakes/provider-fake-kit.ts';
import { engineError } from '../../../../tests/helpers/provider-engines.ts';
import {
  describeTrainingProviderContract,
  expectReadWithin300s,
  trainingFixtures,
  withHeaders,
} from '../../../../tests/helpers/training-provider-contract.ts';
import type { FalConfig } from '../../config.ts';
import { createFalTrainingEngine } from './fal-training.ts';
import { EngineError, type TrainingEngine } from './training-engine.ts';

let fake: FakeFal;
let config: FalConfig;
let engine: TrainingEngine;

const fixtures = trainingFixtures({
  referenceField: 'request_id',
  gender: 'man',
  webhookUrl: (receiverUrl, modelId) => `${receiverUrl}/api/studio/webhooks/fal?model=${modelId}`,
});
const { files, trainingRequest, deliveriesFor } = fixtures;
const receiver = () => fixtures.receiver();

beforeAll(async () => {
  fake = await startFakeFal();
  config = falConfig(fake);
  engine = createFalTrainingEngine(config);
});
afterAll(async () => {
  await fake?.close();
});

const endpoint = '/fal-ai/flux-lora-fast-training';

const jwksFetches = () => fake.requests.filter((r) => r.path === '/.well-known/jwks.json').length;

/** A training run to completion and its signed webhook. */
async function completedTraining(using = engine) {
  const { reference } = await using.start(trainingRequest());
  await fake.completeTraining(reference);
  const received = deliveriesFor(reference);
  expect(received).toHaveLength(1);
  return { reference, delivery: received[0]! };
}

describe('fal training: start', () => {
  it('submits the input to the queue with the key and the webhook URL', async () => {
    const request = trainingRequest();
    const { reference } = await engine.start(request);
    const submit = fake.requests.findLast((r) => r.method === 'POST')!;
    expect(submit.path).toBe(endpoint);
    expect(submit.query).toEqual({ fal_webhook: request.webhookUrl });
    expect(submit.headers.authorization).toBe(`Key ${fake.key}`);
    expect(submit.headers['content-type']).toBe('application/json');
    expect(submit.body).toEqual({
      images_data_url: fixtures.zipUrl(),
      trigger_word: 'lkns7x',
      steps: 1000,
      create_masks: true,
    });
    expect(fake.request(reference)).toMatchObject({ status: 'IN_QUEUE' });
  });

  it('asks for no webhook when there is none', async () => {
    await engine.start(trainingRequest({ webhookUrl: null }));
    const submit = fake.requests.findLast((r) => r.method === 'POST')!;
    expect(submit.query).toEqual({});
  });
});

describe('fal training: status', () => {
  it('maps IN_QUEUE, IN_PROGRESS and COMPLETED (reading the LoRA from the result)', async () => {
    const { reference } = await engine.start(trainingRequest({ webhookUrl: null }));
    expect(await engine.status(reference)).toEqual({ status: 'running', progress: 0 });
    const poll = fake.requests.at(-1)!;
    expect(`${poll.method} ${poll.path}`).toBe(`GET ${endpoint}/requests/${reference}/status`);
    expect(poll.headers.authorization).toBe(`Key ${fake.key}`);

    await fake.startRequest(reference);
    expect(files().hits.get('/signed/photos.zip')).toBeGreaterThan(0);
    expect(await engine.status(reference)).toEqual({ status: 'running' });

    await fake.completeTraining(reference);
    expect(await engine.status(reference)).toEqual({
      status: 'succeeded',
      weights: `${fake.url}/files/${reference}/pytorch_lora_weights.safetensors`,
    });
    expect(fake.requests.at(-1)!.path).toBe(`${endpoint}/requests/${reference}`);
  });

  it('cancels a request in the queue, which then reads as failed; a finished one cannot be', async () => {
    const { reference } = await engine.start(trainingRequest());
    await engine.cancel!(reference);
    const cancel = fake.requests.at(-1)!;
    expect(`${cancel.method} ${cancel.path}`).toBe(`PUT ${endpoint}/requests/${reference}/cancel`);
    expect(await engine.status(reference)).toMatchObject({ status: 'failed' });
    await expect(engine.cancel!(reference)).rejects.toBeInstanceOf(EngineError);
  });

  it('maps a model error and an infrastructure error of a completed request to failed', async () => {
    const model = await engine.start(trainingRequest());
    await fake.failTraining(model.reference, 'At least 4 images are required');
    expect(await engine.status(model.reference)).toEqual({
      status: 'failed',
      error: 'At least 4 images are required',
    });

    const infra = await engine.start(trainingRequest());
    await fake.failTraining(infra.reference, 'Request timed out', {
      status: 504,
      errorType: 'request_timeout',
    });
    expect(await engine.status(infra.reference)).toEqual({
      status: 'failed',
      error: 'Request timed out',
    });
  });

  it('is still running (a transient error) when its start deadline passed: it never ran', async () => {
    const { reference } = await engine.start(trainingRequest());
    await fake.failTraining(reference, 'Request timed out', {
      status: 504,
      errorType: 'request_timeout',
      startDeadline: true,
    });
    const error = await engine.status(reference).then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    expect(error).toBeInstanceOf(EngineError);
    expect((error as EngineError).transient).toBe(true);
    expect((error as EngineError).message).toContain('before its start deadline');
  });
});

describe('fal training: webhooks', () => {
  it('accepts a signed OK delivery and its redelivery, fetching the key set once', async () => {
    const fresh = createFalTrainingEngine(config);
    const before = jwksFetches();
    const { reference, delivery } = await completedTraining(fresh);
    expect(delivery.headers['x-fal-webhook-signature']).toMatch(/^[0-9a-f]{128}$/);
    expect(await fresh.readWebhook(delivery)).toEqual({
      reference,
      state: {
        status: 'succeeded',
        weights: `${fake.url}/files/${reference}/pytorch_lora_weights.safetensors`,
      },
    });
    await fake.redeliver(reference);
    const again = receiver().received.at(-1)!;
    expect(again.rawBody.equals(delivery.rawBody)).toBe(true);
    expect((await fresh.readWebhook(again))?.reference).toBe(reference);
    expect(jwksFetches() - before).toBe(1);
  });

  it('reads an ERROR delivery as failed with the error', async () => {
    const { reference } = await engine.start(trainingRequest());
    await fake.failTraining(reference, 'At least 4 images are required');
    const [delivery] = deliveriesFor(reference);
    expect(JSON.parse(delivery!.rawBody.toString())).toMatchObject({ status: 'ERROR' });
    expect(await engine.readWebhook(delivery!)).toEqual({
      reference,
      state: { status: 'failed', error: 'At least 4 images are required' },
    });
  });

  it('rejects a forged signature, a foreign key, a stale timestamp and a tampered body', async () => {
    const { reference, delivery } = await completedTraining();
    const fetchesBefore = jwksFetches();
    const signature = delivery.headers['x-fal-webhook-signature'] as string;
    const flipped = `${signature.slice(0, -1)}${signature.endsWith('0') ? '1' : '0'}`;
    expect(
      await engine.readWebhook(withHeaders(delivery, { 'x-fal-webhook-signature': flipped })),
    ).toBeNull();
    // A genuine signature presented for another request id.
    expect(
      await engine.readWebhook(
        withHeaders(delivery, { 'x-fal-webhook-request-id': 'another-request' }),
      ),
    ).toBeNull();

    await fake.redeliver(reference, { privateKey: generateKeyPairSync('ed25519').privateKey });
    expect(await engine.readWebhook(receiver().received.at(-1)!)).toBeNull();

    await expectReadWithin300s(
      (timestamp) => fake.redeliver(reference, { timestamp }),
      () => engine.readWebhook(receiver().received.at(-1)!),
    );

    const tampered = delivery.rawBody.toString().replace('"OK"', '"ERROR"');
    expect(tampered).not.toBe(delivery.rawBody.toString());
    expect(await engine.readWebhook({ ...delivery, rawBody: Buffer.from(tampered) })).toBeNull();

    const { 'x-fal-webhook-user-id': _dropped, ...withoutUser } = delivery.headers;
    expect(await engine.readWebhook({ ...delivery, headers: withoutUser })).toBeNull();

    // Forgeries do not make the engine fetch the key set again and again.
    expect(jwksFetches()).toBe(fetchesBefore);
    expect(await engine.readWebhook(delivery)).not.toBeNull();
  });

  it('fetches the key set again when fal rotates its key', async () => {
    const rotating = createFalTrainingEngine(config, { jwksMinRefetchSeconds: 0 });
    const first = await completedTraining(rotating);
    expect(await rotating.readWebhook(first.delivery)).not.toBeNull();
    const before = jwksFetches();
    fake.rotateKey();
    const second = await completedTraining(rotating);
    expect(await rotating.readWebhook(second.delivery)).not.toBeNull();
    expect(jwksFetches() - before).toBe(1);
    // A new engine, with nothing cached, takes the new key at once.
    expect(await createFalTrainingEngine(config).readWebhook(second.delivery)).not.toBeNull();
  });

  it('throws a transient error when the key set cannot be fetched at all', async () => {
    const { delivery } = await completedTraining();
    const closed = await startWebhookReceiver();
    await closed.close();
    const blind = createFalTrainingEngine({
      ...config,
      webhookJwksUrl: `${closed.url}/.well-known/jwks.json`,
    });
    expect((await engineError(blind.readWebhook(delivery))).transient).toBe(true);
  });
});

describe('fal training: errors', () => {
  it('treats 500 and a malformed JSON answer as transient', async () => {
    const { reference } = await engine.start(trainingRequest());
    fake.failNext({ status: 500, match: '/status' });
    const serverError = await engineError(engine.status(reference));
    expect(serverError.transient).toBe(true);
    expect(serverError.message).toBe('fal answered 500: Internal Server Error');

    fake.failNext({ malformed: true, match: `POST ${endpoint}` });
    expect((await engineError(engine.start(trainingRequest()))).transient).toBe(true);

    // A bare gateway error on the result of a completed request says nothing about the training.
    await fake.completeTraining(reference);
    fake.failNext({ status: 502, match: new RegExp(`/requests/${reference}$`) });
    expect((await engineError(engine.status(reference))).transient).toBe(true);
    expect(fake.requests.at(-1)!.path).toBe(`${endpoint}/requests/${reference}`);
  });

  it('treats a validation error as final, with the detail', async () => {
    const invalid = await engineError(engine.start(trainingRequest({ steps: 20_000 })));
    expect(invalid).toMatchObject({
      transient: false,
      message: 'fal answered 422: steps: ensure this value is between 1 and 10000',
    });
  });
});

describe('fal training: deleting the weights of a deleted model', () => {
  it("deletes the training request's payloads, and with them its LoRA file; once gone, done", async () => {
    const { reference } = await engine.start(trainingRequest());
    await fake.completeTraining(reference);
    const state = await engine.status(reference);
    expect(state.status).toBe('succeeded');
    const weights = state.status === 'succeeded' ? state.weights : null;
    const from = fake.requests.length;
    await engine.deleteWeights!({ modelId: 'model_1', reference, weights });
    const [sent] = fake.requests.slice(from);
    expect(`${sent!.method} ${sent!.path}`).toBe(
      `DELETE /v1/models/requests/${reference}/payloads`,
    );
    expect(sent!.headers.authorization).toBe(`Key ${fake.key}`);
    expect(fake.request(reference)?.payloadsDeleted).toBe(true);
    // The result (the LoRA's URL) is gone from fal's queue too.
    await expect(engine.status(reference)).rejects.toBeInstanceOf(EngineError);
    // Asked again (a retried job): already gone is done.
    await expect(
      engine.deleteWeights!({ modelId: 'model_1', reference, weights }),
    ).resolves.toBeUndefined();
  });

  it('asks again later when fal could not delete a file, and is refused without an admin key', async () => {
    const { reference } = await engine.start(trainingRequest());
    await fake.completeTraining(reference);
    fake.failFileDeletion('Storage backend unavailable');
    const left = await engine.deleteWeights!({ modelId: 'm', reference, weights: null }).then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    expect(left).toBeInstanceOf(EngineError);
    expect((left as EngineError).transient).toBe(true);
    expect(fake.request(reference)?.payloadsDeleted).toBeFalsy();

    const keyless = createFalTrainingEngine({ ...config, key: 'not:admin' });
    const refused = await keyless.deleteWeights!({ modelId: 'm', reference, weights: null }).then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    expect(refused).toBeInstanceOf(EngineError);
    expect((refused as EngineError).transient).toBe(false);
    // Nothing to delete for a training that never got a reference.
    await expect(
      engine.deleteWeights!({ modelId: 'm', reference: null, weights: null }),
    ).resolves.toBeUndefined();
  });
});

describeTrainingProviderContract(
  {
    provider: 'fal',
    engine: (options) => (options ? createFalTrainingEngine(config, options) : engine),
    deniedWithWrongKey: () =>
      createFalTrainingEngine({ ...config, key: 'id:wrong' }).start(trainingRequest()),
    unknown: {
      reference: '00000000-0000-0000-0000-000000000000',
      message: 'fal answered 404: Request not found',
    },
    hang: { match: '/status' },
    failNext: (failure) => fake.failNext(failure),
    completeTraining: (reference) => fake.completeTraining(reference),
    zipErrors: {
      expired: 'images_data_url: Failed to download the file (download failed with HTTP 403)',
      notZip: 'images_data_url: The file is not a valid zip archive',
    },
    throttled: { match: `POST ${endpoint}`, retryAfter: 5 },
  },
  fixtures,
);
