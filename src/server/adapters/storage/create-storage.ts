import type { Config } from '../../config.ts';
import { LocalStorage } from './local-storage.ts';
import { createS3Storage } from './s3-storage.ts';
import type { Storage } from './storage.ts';

/** URL path under which the API serves local-disk files behind signed URLs. */
export const filesPublicPath = '/api/files';

/** The one place that picks the storage implementation from the configuration. */
export function createStorage(config: Config): Storage {
  if (config.storage.driver === 's3') {
    return createS3Storage({
      ...config.storage.s3,
      defaultTtlSeconds: config.signedUrlTtlSeconds,
    });
  }
  const storage = new LocalStorage({
    root: config.storage.localDir,
    secret: config.authSecret,
    defaultTtlSeconds: config.signedUrlTtlSeconds,
    publicPath: filesPublicPath,
  });
  // A process killed mid-write leaves its half-written file; the next start removes it.
  void storage.removeAbandonedWrites().catch(() => {});
  return storage;
}
