// Credit packs: the one-time top-ups a subscriber can buy.
// Part of the product numbers of the specification, written once (src/common/product/, one file
// a topic). Imported by the browser and the server, so nothing here may touch Node or DOM APIs.

export interface CreditPack {
  readonly id: string;
  readonly credits: number;
  readonly priceUsd: number;
  readonly originalPriceUsd: number;
  readonly discountPercent: number;
  readonly popular: boolean;
}

export const creditPacks = [
  {
    id: 'pack_200',
    credits: 200,
    priceUsd: 19,
    originalPriceUsd: 25,
    discountPercent: 24,
    popular: false,
  },
  {
    id: 'pack_500',
    credits: 500,
    priceUsd: 39,
    originalPriceUsd: 50,
    discountPercent: 22,
    popular: true,
  },
  {
    id: 'pack_1500',
    credits: 1500,
    priceUsd: 89,
    originalPriceUsd: 125,
    discountPercent: 29,
    popular: false,
  },
  {
    id: 'pack_3000',
    credits: 3000,
    priceUsd: 169,
    originalPriceUsd: 250,
    discountPercent: 32,
    popular: false,
  },
] as const satisfies readonly CreditPack[];

export type CreditPackId = (typeof creditPacks)[number]['id'];
export const CREDIT_PACK_IDS = creditPacks.map((pack) => pack.id) as readonly CreditPackId[];

export function creditPackById(
  id: string | null | undefined,
): (typeof creditPacks)[number] | undefined {
  return creditPacks.find((pack) => pack.id === id);
}
