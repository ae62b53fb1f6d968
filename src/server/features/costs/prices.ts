/**
 * The operator's price table: what one call of each kind costs at each engine, in US dollars.
 * Providers do not put a price in their answers (Replicate bills GPU seconds, fal megapixels or
 * compute seconds), so the cost of a call is read from this table; `PROVIDER_PRICES_USD` (JSON,
 * `{"fal.picture": 0.03}`) overrides any entry. The defaults and where they come from are in
 * docs/providers.md ("Prices"); the offline engines cost nothing.
 */

export const costKinds = ['picture', 'reroll', 'upscale', 'preview', 'training', 'tryon'] as const;
export type CostKind = (typeof costKinds)[number];

export type PriceTable = Record<string, number>;

export const defaultPrices: PriceTable = {
  // FLUX dev with a LoRA: Replicate's flux-dev is $0.025 an image; fal's flux-lora $0.035 a
  // megapixel, 0.79 MP for our 768x1024.
  'replicate.picture': 0.025,
  'fal.picture': 0.0275,
  // A re-roll is another picture of the same kind.
  'replicate.reroll': 0.025,
  'fal.reroll': 0.0275,
  // ESRGAN x2 on a 768x1024 picture: seconds of a small GPU.
  'replicate.upscale': 0.002,
  'fal.upscale': 0.002,
  // Zero-shot identity (PuLID-FLUX) at 768x960: $0.0333 a megapixel on fal, taken as a whole
  // megapixel; Replicate bills its A100 seconds (about 15 s at $0.0014).
  'replicate.preview': 0.021,
  'fal.preview': 0.033,
  // A FLUX LoRA training of about 20 minutes on an H100 (Replicate, $0.001525 a second); fal's
  // fast trainer's run.
  'replicate.training': 1.85,
  'fal.training': 2,
  // FASHN's try-on v1.6 at fal's listing ($0.075 a generation).
  'fashn.tryon': 0.075,
};

/** The price of one call, 0 for an engine without one (local). */
export function priceOf(prices: PriceTable, engine: string, kind: CostKind): number {
  return prices[`${engine}.${kind}`] ?? 0;
}
