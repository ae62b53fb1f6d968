// Money: the currency and how amounts are written.
// Part of the product numbers of the specification, written once (src/common/product/, one file
// a topic). Imported by the browser and the server, so nothing here may touch Node or DOM APIs.

export const CURRENCY = 'usd' as const;

export function usdToCents(usd: number): number {
  return Math.round(usd * 100);
}

/**
 * '$19', '$4.92', '$1,299': whole amounts without decimals, as the pages show them. Written out
 * rather than with Intl.NumberFormat, whose first use costs a phone tens of milliseconds (it loads
 * the locale's data) while the landing page's prices render.
 */
export function formatUsd(usd: number): string {
  const [whole = '0', cents] = Math.abs(usd)
    .toFixed(Number.isInteger(usd) ? 0 : 2)
    .split('.');
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${usd < 0 ? '-' : ''}$${grouped}${cents ? `.${cents}` : ''}`;
}
