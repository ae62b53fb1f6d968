// Phrases the words of several features share: the picture types and size an
// upload accepts, and billing's sentences that the studio and the quiz's offer say too. In a file
// of their own, so a page that says one of them does not download another feature's words.

import { catalog } from '../product/catalog.ts';
import { photos } from '../product/photos.ts';

function listWithOr(items: readonly string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} or ${items[items.length - 1]}`;
}

/** The training photos' types: 'JPEG, PNG, WebP or HEIC'. */
export const acceptedTypes = listWithOr(photos.acceptedTypeNames);
/** The catalog pictures' types. */
export const catalogImageTypes = listWithOr(catalog.acceptedTypeNames);
/** The largest upload: '10 MB'. */
export const maxMb = `${photos.maxUploadMegabytes} MB`;

export const subscriptionRequiredTitle = 'Subscription Required';
export const subscriptionRequiredDescription =
  "To create your AI model and start generating personalized images, you'll need an active subscription.";
export const failedToCreateCheckoutSession = 'Failed to create checkout session';
