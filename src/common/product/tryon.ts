// Virtual try-on: uploads, durations, the engine options, the sweep.
// Part of the product numbers of the specification, written once (src/common/product/, one file
// a topic). Imported by the browser and the server, so nothing here may touch Node or DOM APIs.

import { photos } from './photos.ts';

export const tryOn = {
  /** Person and garment uploads use the same size rule as training photos. */
  maxUploadBytes: photos.maxUploadBytes,
  acceptedMimeTypes: photos.acceptedMimeTypes,
  durationSecondsMin: 30,
  durationSecondsMax: 60,
  publicSliderStartPercent: 50,
  engineOptions: { category: 'auto', mode: 'balanced', garmentPhotoType: 'auto' },
  // An in-process engine (local) finishes in about a second, so the start answer waits this long
  // for it and can already say "completed"; past it, the answer says "started".
  startAnswerWaitMs: 8000,
  // The job behind an in-process run the start answer waits for starts this much later: it only
  // matters when that process stopped before the run ended.
  inProcessJobDelaySeconds: 60,
  // A try-on with no outcome this long after its start is settled by the sweep (every 5 minutes):
  // the provider is asked once more, else it fails and its credit is refunded. Longer than a
  // job's attempts with their pauses (4 x 4 minutes).
  staleAfterMinutes: 30,
  // Results per page of the list (newest first); older ones load on demand.
  listPageSize: 50,
} as const;
