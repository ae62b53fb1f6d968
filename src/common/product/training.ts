// Training a model: steps, the free monthly training, estimates; the genders a model is made for.
// Part of the product numbers of the specification, written once (src/common/product/, one file
// a topic). Imported by the browser and the server, so nothing here may touch Node or DOM APIs.

export const training = {
  steps: 1000,
  /** Each paid renewal resets the monthly free training to this. */
  freeTrainingsPerRenewal: 1,
  estimateMinutes: 10,
  /** The login side panel's marketing claim, kept as written. */
  loginPanelReadyMinutes: 30,
  /** A training with no news for this long is failed and refunded by the reconciler. */
  timeoutMinutes: 120,
} as const;

export const genders = ['man', 'woman', 'other'] as const;
export type Gender = (typeof genders)[number];
