// Prompts, model names, list sizes, signed URLs and rate limits.
// Part of the product numbers of the specification, written once (src/common/product/, one file
// a topic). Imported by the browser and the server, so nothing here may touch Node or DOM APIs.

export const prompt = {
  previewChars: 50,
  minHeightPx: 120,
  // Not in the specification: bounds what a request may carry to the engine.
  maxLength: 2000,
} as const;

export const modelName = {
  // Not in the specification: keeps cards and headings readable.
  maxLength: 60,
} as const;

export const lists = {
  generationsPage: 50,
  bulkJobs: 20,
  tryOnPicker: 20,
  presetsPerCategory: 8,
} as const;

export const storage = {
  signedUrlTtlSeconds: 3600,
  trainingZipUrlTtlSeconds: 60,
} as const;

// Not in the specification; the design asks for limits on these endpoints.
export const rateLimits = {
  signIn: { max: 10, windowMs: 60_000 },
  signUp: { max: 5, windowMs: 60_000 },
  passwordReset: { max: 5, windowMs: 15 * 60_000 },
  // After `max` failed sign-ins for one email, each with less than `windowMs` since the one
  // before, sign-in for that email waits baseDelayMs, doubling per further failure, up to maxDelayMs.
  signInFailures: { max: 5, windowMs: 15 * 60_000, baseDelayMs: 30_000, maxDelayMs: 15 * 60_000 },
  uploads: { max: 30, windowMs: 60_000 },
  generation: { max: 30, windowMs: 60_000 },
} as const;
