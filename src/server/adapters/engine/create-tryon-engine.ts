import type { Config } from '../../config.ts';
import type { Storage } from '../storage/storage.ts';
import { createFashnTryOnEngine } from './fashn-tryon.ts';
import { createLocalTryOnEngine } from './local-tryon.ts';
import type { TryOnEngine } from './tryon-engine.ts';

/** The one place that picks the try-on engine from the configuration (TRYON_ENGINE). */
export function createTryOnEngine(config: Config, storage: Storage): TryOnEngine {
  const tryOn = config.tryOn;
  switch (tryOn.provider) {
    case 'local':
      return createLocalTryOnEngine({ storage });
    case 'fashn':
      return createFashnTryOnEngine(tryOn.fashn);
  }
}
