import type { Config } from '../../config.ts';
import { LocalStorage } from './local-storage.ts';
import type { Storage } from './storage.ts';

/** URL path under which the API serves local-disk files behind signed URLs. */
export const filesPublicPath = '/api/files';

/** The one place that picks the storage implementation from the configuration. */
export function createStorage(config: Config): Storage {
  return new LocalStorage({
    root: config.storage.localDir,
    secret: config.authSecret,
    defaultTtlSeconds: config.signedUrlTtlSeconds,
    publicPath: filesPublicPath,
  });
}
