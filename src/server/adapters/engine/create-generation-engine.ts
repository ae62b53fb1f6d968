import type { Config } from '../../config.ts';
import type { Storage } from '../storage/storage.ts';
import { createFalGenerationEngine } from './fal-generation.ts';
import type { GenerationEngine } from './generation-engine.ts';
import { createLocalGenerationEngine } from './local-generation.ts';
import { createLocalPreview } from './local-preview.ts';
import { createReplicateGenerationEngine } from './replicate-generation.ts';

/** The one place that picks the generation engine from the configuration (as for training). */
export function createGenerationEngine(config: Config, storage: Storage): GenerationEngine {
  const engine = config.engine;
  switch (engine.provider) {
    case 'local':
      // Training previews (decision 039) come from the same offline studio.
      return {
        ...createLocalGenerationEngine({ storage, draft: engine.draft }),
        preview: createLocalPreview({ storage }),
      };
    case 'replicate':
      return createReplicateGenerationEngine(engine.replicate);
    case 'fal':
      return createFalGenerationEngine(engine.fal);
  }
}
