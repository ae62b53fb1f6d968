/**
 * Ten custom prompts of the kinds users write (places, times, weather, clothes, styles): the
 * offline studio's tests and contact sheets show each of them.
 */
export const examplePrompts = [
  'an astronaut floating in space',
  'beach at sunset, red summer dress',
  'snowy village at night',
  'professional headshot in a modern office',
  'cyberpunk city in the rain with neon lights',
  'oil painting of me as a medieval queen',
  'black and white film noir portrait',
  'cozy cafe in autumn, warm light',
  'on a mountain top at golden hour',
  'underwater with fish',
] as const;
