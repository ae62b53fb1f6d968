import { useSyncExternalStore } from 'react';

const unchanging = () => () => {};

/**
 * `value`, except while React takes over prerendered markup (the landing page, see main.tsx):
 * then `prerendered`, what the markup was drawn with, and the real value from the next render
 * on (no extra render when the two are equal). Pages drawn in the browser get `value` at once.
 *
 * The prerender had no data and nobody signed in, and React does not correct attributes that
 * differ from the markup it takes over. Parts of the page are taken over later than others,
 * when the data may already be here, so whatever comes from the query cache or the session
 * must first be what the prerender saw.
 */
export function useHydrationSafe<Value>(value: Value, prerendered: Value): Value {
  return useSyncExternalStore(
    unchanging,
    () => value,
    () => prerendered,
  );
}
