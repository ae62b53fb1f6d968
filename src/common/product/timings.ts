// Timings (ms), network retries and layout (px).
// Part of the product numbers of the specification, written once (src/common/product/, one file
// a topic). Imported by the browser and the server, so nothing here may touch Node or DOM APIs.

import { training } from './training.ts';

export const timings = {
  carousel: { slideMs: 6000, tickMs: 50, transitionMs: 300 },
  demo: { typingMsPerChar: 25, pauseMs: 300, holdMs: 2500 },
  stepThreeRotationMs: 2000,
  paymentPolling: { maxAttempts: 10, baseDelayMs: 2000, perAttemptMs: 500 },
  creditVerification: { maxAttempts: 10, intervalMs: 2000 },
  dashboardPaymentRefreshMs: 2000,
  validationPoll: { uploadMs: 2000, resultsMs: 3000 },
  /** A model name being typed is saved to the draft after this pause (a reload keeps it). */
  draftNameSaveMs: 500,
  tryOnReloadMs: 2000,
  /** A picture shown where the user asked for it re-reads itself this often (a missed event). */
  generationResultPollMs: 15_000,
  toast: { shortMs: 2000, longMs: 5000 },
  sseHeartbeatMs: 25_000,
  requestTimeoutMs: 10_000,
  /** A job retried after an engine's 429 waits its Retry-After, but never longer than this. */
  engineRetryAfterMaxSeconds: 600,
  trainingEstimateMs: training.estimateMinutes * 60_000,
  offerCountdownTickMs: 1000,
} as const;

/** Delay before payment-status poll number `attempt` (0-based): 2000 ms plus 500 ms per attempt. */
export function paymentPollDelayMs(attempt: number): number {
  return timings.paymentPolling.baseDelayMs + timings.paymentPolling.perAttemptMs * attempt;
}

export const network = {
  retryStatuses: [502, 503, 504],
  queryRetries: 1,
  refetchOnWindowFocus: false,
} as const;

export const layout = {
  mobileBreakpointPx: 768,
  presetCardWidthPx: 320,
  cardsPerView: { small: 2, medium: 4 },
} as const;
