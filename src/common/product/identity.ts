// Face identity (measured by bench/embeddings.ts; see docs/decisions/022).
// Part of the product numbers of the specification, written once (src/common/product/, one file
// a topic). Imported by the browser and the server, so nothing here may touch Node or DOM APIs.

/**
 * Thresholds on `faceSimilarity` of two MobileFace descriptors (src/server/images/identity.ts),
 * from bench/results/embeddings.md. On the London Set (102 people, 20,604 impostor pairs, one
 * studio) the equal-error rate is 0.09% at 0.51 and 0.1% false accepts needs 0.56; but one real
 * person over two sessions, a 15 cm close-up and mirrored copies (person A) goes down to 0.369,
 * while different people in one studio set-up (the real portraits) reach 0.342 and person B
 * 0.021. A user's own photo refused is worse than a stranger let through a draft (the training
 * still rests on the majority), so the threshold keeps all of person A together: midway between
 * 0.342 and 0.369. There the London Set has 2.49% false accepts and no false rejects (the old
 * faceres threshold, 0.57, let 5.5% through).
 */
const samePersonMinSimilarity = 0.355;

export const identity = {
  samePersonMinSimilarity,
  /**
   * The likeness score shown on a generated picture (`likenessPercent`): 0% at the London
   * impostors' median (a typical stranger), 50% at the same-person threshold, 100% at the London
   * genuine pairs' median (the same person, another expression).
   */
  likeness: { strangerSimilarity: 0.09, samePersonSimilarity: 0.83 },
  /**
   * A finished picture whose face scores below this against the user's profile is made again
   * with a new seed, and if every try stays below, the user keeps the most alike and gets the
   * credit back: the same-person threshold, below which the face measures as someone else's
   * (a 50% likeness badge). Measured on the London Set there: no genuine pair below it, 2.49% of
   * strangers above it.
   */
  rerollBelowSimilarity: samePersonMinSimilarity,
  /**
   * A face whose colour spread at equal lightness (`chromaSpread` in
   * src/server/images/colourfulness.ts, on the descriptor's crop) is below this has no colour of
   * its own: black and white, sepia, a duotone, a pencil sketch. Its likeness is measured in grey
   * (decision 033). Measured: the photos (person A, person B, assets/people; 40) 3.29-16.06 and
   * the same greyed 0.00; the default pack's pictures 2.26-16.68 in colour (156; the lowest a
   * pale Runway Flash) and 0.01-1.00 in its black-and-white and sepia presets (12); the offline
   * studio's treatments of 14 of those photos 2.59 and up in colour, 0.60-1.39 in sepia, duotone
   * and sketch. The threshold sits between 1.39 and 2.26.
   */
  colourlessMaxChromaSpread: 1.8,
} as const;

/** A face similarity as the likeness percentage shown to users (0-100), see `identity.likeness`. */
export function likenessPercent(similarity: number): number {
  const { strangerSimilarity, samePersonSimilarity } = identity.likeness;
  const threshold = identity.samePersonMinSimilarity;
  const share =
    similarity < threshold
      ? (0.5 * (similarity - strangerSimilarity)) / (threshold - strangerSimilarity)
      : 0.5 + (0.5 * (similarity - threshold)) / (samePersonSimilarity - threshold);
  return Math.round(100 * Math.min(1, Math.max(0, share)));
}
