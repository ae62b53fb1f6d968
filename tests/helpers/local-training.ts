import { zipSync } from 'fflate';
import type { TrainingRequest } from '../../src/server/adapters/engine/training-engine.ts';
import { type Storage, storageKey } from '../../src/server/adapters/storage/storage.ts';

/**
 * A training request for the local engine: the photos zipped as the app zips them
 * (`image_N.jpg`, stored as they are), put in `storage` under the user's zips, for a woman's
 * model with the trigger word `ohwx`.
 */
export async function localTrainingRequest(
  storage: Storage,
  modelId: string,
  photos: Buffer[],
  onProgress?: (percent: number) => void,
): Promise<TrainingRequest> {
  const zipKey = storageKey('users', 'user-1', 'image_zips', `${modelId}.zip`);
  const zip = zipSync(Object.fromEntries(photos.map((bytes, i) => [`image_${i + 1}.jpg`, bytes])), {
    level: 0,
  });
  await storage.put(zipKey, Buffer.from(zip), 'application/zip');
  return {
    modelId,
    userId: 'user-1',
    zipKey,
    zipUrl: await storage.signedUrl(zipKey),
    triggerWord: 'ohwx',
    steps: 1000,
    gender: 'woman',
    webhookUrl: null,
    ...(onProgress ? { onProgress } : {}),
  };
}
