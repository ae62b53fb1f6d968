// Small helpers and phrases shared by several groups of messages.

import { photos } from '../product/photos.ts';

/** '1 credit', '3 credits'. */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** How many photos a model is trained on, as the specification words it: '8-12'. */
export const photoRange = `${photos.min}-${photos.max}`;
