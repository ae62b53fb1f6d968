import { filesPublicPath } from './create-storage.ts';
import { LocalStorage } from './local-storage.ts';
import { createS3Storage } from './s3-storage.ts';
import { startFakeS3 } from '../../../../tests/fakes/s3-api.ts';
import { describeStorageContract } from '../../../../tests/helpers/storage-contract.ts';
import { createTestApp } from '../../../../tests/helpers/test-app.ts';

/** The same behavioural checks against both implementations (see tests/helpers/storage-contract.ts). */

describeStorageContract('LocalStorage', async () => {
  const app = await createTestApp();
  return {
    storage: ({ now } = {}) =>
      new LocalStorage({
        root: app.config.storage.localDir,
        secret: app.config.authSecret,
        defaultTtlSeconds: app.config.signedUrlTtlSeconds,
        publicPath: filesPublicPath,
        ...(now ? { now } : {}),
      }),
    async get(url) {
      const response = await app.app!.inject({ method: 'GET', url });
      return {
        status: response.statusCode,
        headers: Object.fromEntries(
          Object.entries(response.headers).map(([name, value]) => [name, String(value)]),
        ),
        body: response.rawPayload,
      };
    },
    close: () => app.stop(),
  };
});

describeStorageContract('S3Storage', async () => {
  const credentials = { accessKeyId: 'AKIDCONTRACT', secretAccessKey: 'contract-secret-key' };
  // Small pages, so the contract's prefix deletions page through listings.
  const fake = await startFakeS3({ ...credentials, buckets: ['contract'], pageSize: 2 });
  return {
    storage: ({ now } = {}) =>
      createS3Storage({
        ...credentials,
        bucket: 'contract',
        region: 'us-east-1',
        endpoint: fake.url,
        forcePathStyle: true,
        defaultTtlSeconds: 3600,
        ...(now ? { now } : {}),
      }),
    async get(url) {
      const response = await fetch(url);
      return {
        status: response.status,
        headers: Object.fromEntries(response.headers),
        body: Buffer.from(await response.arrayBuffer()),
      };
    },
    close: () => fake.close(),
  };
});
