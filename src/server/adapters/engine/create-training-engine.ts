import type { Config } from '../../config.ts';
import type { Storage } from '../storage/storage.ts';
import { createFalTrainingEngine } from './fal-training.ts';
import { createLocalTrainingEngine } from './local-training.ts';
import { createReplicateTrainingEngine } from './replicate-training.ts';
import type { TrainingEngine } from './training-engine.ts';

/** The one place that picks the training engine from the configuration. */
export function createTrainingEngine(config: Config, storage: Storage): TrainingEngine {
  const engine = config.engine;
  switch (engine.provider) {
    case 'local':
      return createLocalTrainingEngine({ storage });
    case 'replicate':
      return createReplicateTrainingEngine(engine.replicate);
    case 'fal':
      return createFalTrainingEngine(engine.fal);
  }
}
