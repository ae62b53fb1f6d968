// How a subscription plan is described on its card: on the landing's pricing section and the
// plans page. Apart from billing's other words so the landing does not
// download the rest of them.

/** Spread into `messages.billing`. */
export const planCardMessages = {
  mostPopular: 'MOST POPULAR',
  perMonth: '/ month',
  perYear: '/ year',
  includes: 'Includes:',
  creditsPerMonth: (credits: number) => `${credits} Credits / Month`,
} as const;
