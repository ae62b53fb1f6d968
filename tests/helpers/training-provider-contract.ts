import { randomBytes } from 'node:crypto';
import { zipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  TrainingEngine,
  TrainingRequest,
} from '../../src/server/adapters/engine/training-engine.ts';
import type { Gender } from '../../src/common/product/training.ts';
import {
  type FileHost,
  type ReceivedWebhook,
  type ScriptedFailure,
  startFileHost,
  startWebhookReceiver,
  type WebhookReceiver,
} from '../fakes/provider-fake-kit.ts';
import { engineError } from './provider-engines.ts';

/**
 * What the Replicate and fal training engines owe the app alike (decision 050), checked the same
 * way against each provider's fake, and the setting their tests share: the signed zip of photos
 * the provider downloads, a receiver for its webhooks, and training requests.
 */

export interface TrainingFixtures {
  files(): FileHost;
  receiver(): WebhookReceiver;
  /** The signed URL of a zip of two photos, on the file host. */
  zipUrl(): string;
  trainingRequest(overrides?: Partial<TrainingRequest>): TrainingRequest;
  /** The webhook deliveries received for one training, in order. */
  deliveriesFor(reference: string): ReceivedWebhook[];
}

/** Starts the file host and the webhook receiver for the file (its beforeAll and afterAll). */
export function trainingFixtures(person: {
  gender: Gender;
  /** Where the provider reports, for a model. */
  webhookUrl(receiverUrl: string, modelId: string): string;
  /** The field of a delivery's body that holds the training's reference. */
  referenceField: 'id' | 'request_id';
}): TrainingFixtures {
  let files: FileHost;
  let receiver: WebhookReceiver;
  let zipUrl: string;
  beforeAll(async () => {
    [files, receiver] = await Promise.all([startFileHost(), startWebhookReceiver()]);
    zipUrl = files.serve('/signed/photos.zip', {
      body: zipSync({ 'image_1.jpg': randomBytes(64), 'image_2.jpg': randomBytes(64) }),
    });
  });
  afterAll(async () => {
    await Promise.all([files?.close(), receiver?.close()]);
  });
  return {
    files: () => files,
    receiver: () => receiver,
    zipUrl: () => zipUrl,
    deliveriesFor: (reference) =>
      receiver.received.filter(
        (delivery) => JSON.parse(delivery.rawBody.toString())[person.referenceField] === reference,
      ),
    trainingRequest(overrides = {}) {
      const modelId = `mdl_${randomBytes(6).toString('hex')}`;
      return {
        modelId,
        userId: 'user_1',
        zipUrl,
        zipKey: `users/user_1/models/${modelId}/training.zip`,
        triggerWord: 'lkns7x',
        steps: 1000,
        gender: person.gender,
        webhookUrl: person.webhookUrl(receiver.url, modelId),
        ...overrides,
      };
    },
  };
}

export interface TrainingProviderUnderTest {
  provider: 'Replicate' | 'fal';
  /** The file's engine, or one with a short request timeout. */
  engine(options?: { requestTimeoutMs: number }): TrainingEngine;
  /** A call of an engine with a key or token the provider does not know. */
  deniedWithWrongKey(): Promise<unknown>;
  /** A training reference the provider does not know, and its answer. */
  unknown: { reference: string; message: string };
  /** A request that the fake leaves unanswered when told to hang, and the timeout's words. */
  hang: { match: string; message?: string };
  failNext(failure: ScriptedFailure): void;
  /** Ends a training as the provider's runner would: it downloads the zip first. */
  completeTraining(reference: string): Promise<void>;
  /** The training's error for a zip URL that answers 403, and for a file that is not a zip. */
  zipErrors: { expired: string; notZip: string };
  /** A throttled start: the request it fails, its Retry-After, the provider's words if any. */
  throttled: { match: string | RegExp; retryAfter: number; message?: string };
}

export function describeTrainingProviderContract(
  spec: TrainingProviderUnderTest,
  fixtures: TrainingFixtures,
) {
  describe(`${spec.provider} training: what every provider owes`, () => {
    it('fails the training when the zip URL has expired or is not a zip', async () => {
      const engine = spec.engine();
      const expired = fixtures.files().serve('/signed/expired.zip', {
        status: 403,
        body: 'Signature expired',
        contentType: 'text/plain',
      });
      const notZip = fixtures.files().serve('/signed/photo.jpg', {
        body: randomBytes(200),
        contentType: 'image/jpeg',
      });
      const first = await engine.start(fixtures.trainingRequest({ zipUrl: expired }));
      await spec.completeTraining(first.reference);
      expect(await engine.status(first.reference)).toEqual({
        status: 'failed',
        error: spec.zipErrors.expired,
      });
      const second = await engine.start(fixtures.trainingRequest({ zipUrl: notZip }));
      await spec.completeTraining(second.reference);
      expect(await engine.status(second.reference)).toEqual({
        status: 'failed',
        error: spec.zipErrors.notZip,
      });
    });

    it('treats 429 as transient with Retry-After', async () => {
      const { match, retryAfter, message } = spec.throttled;
      spec.failNext({ status: 429, retryAfter, match });
      const throttled = await engineError(spec.engine().start(fixtures.trainingRequest()));
      expect(throttled).toMatchObject({ transient: true, retryAfterSeconds: retryAfter });
      if (message) expect(throttled.message).toContain(message);
    });

    it('treats a bad key and an unknown training as final, with the detail', async () => {
      const denied = await engineError(spec.deniedWithWrongKey());
      expect(denied.transient).toBe(false);
      expect(denied.message).toContain('401');

      const unknown = await engineError(spec.engine().status(spec.unknown.reference));
      expect(unknown).toMatchObject({ transient: false, message: spec.unknown.message });
    });

    it('treats a timeout as transient', async () => {
      const impatient = spec.engine({ requestTimeoutMs: 200 });
      spec.failNext({ hang: true, match: spec.hang.match });
      const slow = await engineError(impatient.status('whatever'));
      expect(slow).toMatchObject({ transient: true });
      if (spec.hang.message) expect(slow.message).toContain(spec.hang.message);
    });
  });
}

/** The delivery with some of its headers replaced or added (a forgery, another message's id). */
export function withHeaders(
  delivery: ReceivedWebhook,
  headers: Record<string, string>,
): ReceivedWebhook {
  return { ...delivery, headers: { ...delivery.headers, ...headers } };
}

/**
 * Checks the 300 s replay window of a provider's signed webhooks: the same delivery signed more
 * than 300 s before or after the moment it is read is refused, one signed within it is read.
 * `redeliverAt` has the provider send it again signed at a timestamp; `readLatest` reads the
 * latest delivery received. Each timestamp is taken just before its delivery and kept 20 s from
 * the window's edge: on a loaded machine a delivery and its read took over a second, and a
 * delivery signed 301 s ahead was read inside the window.
 */
export async function expectReadWithin300s(
  redeliverAt: (timestamp: number) => Promise<unknown>,
  readLatest: () => Promise<unknown>,
) {
  const now = () => Math.floor(Date.now() / 1000);
  await redeliverAt(now() - 320);
  expect(await readLatest()).toBeNull();
  await redeliverAt(now() + 320);
  expect(await readLatest()).toBeNull();
  await redeliverAt(now() - 280);
  expect(await readLatest()).not.toBeNull();
}
