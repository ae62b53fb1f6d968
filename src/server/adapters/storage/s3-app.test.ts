import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeS3, startFakeS3 } from '../../../../tests/fakes/s3-api.ts';
import { apiCaller, photoFixtures } from '../../../../tests/helpers/studio.ts';
import { createTestApp, type TestApp } from '../../../../tests/helpers/test-app.ts';
import { signUp } from '../../../../tests/helpers/users.ts';
import { S3Storage } from './s3-storage.ts';

/** The whole app with STORAGE=s3 against the fake bucket: uploads, presigned previews, deletion. */

const bucket = 'likeness-app';
let fake: FakeS3;
let app: TestApp;

beforeAll(async () => {
  const credentials = { accessKeyId: 'AKIDAPPTEST', secretAccessKey: 'app-test-secret' };
  fake = await startFakeS3({ ...credentials, buckets: [bucket] });
  app = await createTestApp({ env: fake.appEnv(bucket) });
});
afterAll(async () => {
  await app?.stop();
  await fake?.close();
});

describe('the app on an S3 bucket', () => {
  it('stores an uploaded training photo in the bucket and previews it through a presigned URL', async () => {
    expect(app.deps.storage).toBeInstanceOf(S3Storage);
    const api = apiCaller(app);
    const user = await signUp(app);

    const { status, body } = await api.upload(user, photoFixtures.personA(1));
    expect(status, JSON.stringify(body)).toBe(201);
    const photo = body.photo!;

    const prefix = `users/${user.id}/training-images/`;
    const stored = [...fake.bucket(bucket).keys()].filter((key) => key.startsWith(prefix)).sort();
    expect(stored).toEqual([`${prefix}${photo.id}-thumb.webp`, `${prefix}${photo.id}.jpg`]);
    const thumbnail = fake.bucket(bucket).get(`${prefix}${photo.id}-thumb.webp`)!;
    expect(thumbnail.contentType).toBe('image/webp');
    expect(fake.bucket(bucket).get(`${prefix}${photo.id}.jpg`)!.contentType).toBe('image/jpeg');

    // The preview link is the bucket's own presigned URL, absolute, readable by plain fetch.
    const url = new URL(photo.thumbnailUrl);
    expect(url.origin).toBe(fake.url);
    expect(url.searchParams.get('X-Amz-Signature')).toMatch(/^[0-9a-f]{64}$/);
    expect(url.searchParams.get('X-Amz-Expires')).toBe(String(app.config.signedUrlTtlSeconds));
    const response = await fetch(url);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/webp');
    const served = Buffer.from(await response.arrayBuffer());
    expect(served.equals(thumbnail.body)).toBe(true);
    expect((await sharp(served).metadata()).format).toBe('webp');

    // The worker reads the photo back from the bucket to validate it.
    const draft = await api.settledDraft(user);
    expect(draft.photos.map((p) => p.status)).toEqual(['passed']);
    expect(
      fake.calls.some(
        (call) => call.operation === 'GetObject' && call.key === `${prefix}${photo.id}.jpg`,
      ),
    ).toBe(true);

    // Deleting the photo deletes both objects.
    const deleted = await api.call(user, 'DELETE', `/api/studio/photos/${photo.id}`);
    expect(deleted.status).toBe(204);
    expect([...fake.bucket(bucket).keys()].filter((key) => key.startsWith(prefix))).toEqual([]);
  });

  it("lets pages show and fetch files from the bucket's origin, and nothing more", async () => {
    const response = await app.app!.inject({ method: 'GET', url: '/healthz' });
    const csp = String(response.headers['content-security-policy']);
    const directive = (name: string) =>
      csp
        .split(';')
        .map((d) => d.trim())
        .find((d) => d.startsWith(`${name} `));
    expect(directive('img-src')).toBe(`img-src 'self' data: blob: ${fake.url}`);
    expect(directive('connect-src')).toBe(`connect-src 'self' ${fake.url}`);
    expect(directive('media-src')).toBe(`media-src 'self' blob: ${fake.url}`);
    expect(directive('script-src')).toBe("script-src 'self'");
  });

  it('does not serve the local files route', async () => {
    const response = await app.app!.inject({ method: 'GET', url: '/api/files/users/x/a.jpg' });
    expect(response.statusCode).toBe(404);
  });
});
