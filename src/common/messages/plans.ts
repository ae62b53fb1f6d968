// How a subscription plan is described on its card: on the landing's pricing section and the
// plans page. Part of `messages.billing`; the landing imports these words from here so it does
// not download the rest of billing's.

/** Spread into `messages.billing`. */
export const planCardMessages = {
  mostPopular: 'MOST POPULAR',
  perMonth: '/ month',
  perYear: '/ year',
  includes: 'Includes:',
  creditsPerMonth: (credits: number) => `${credits} Credits / Month`,
} as const;
