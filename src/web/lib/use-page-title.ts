import { useEffect } from 'react';
import { brand } from '../../common/product.ts';

/**
 * Sets the tab title for the page that calls it: `usePageTitle('Pricing')` gives
 * "Pricing · Likeness". Each page names itself, so titles differ per route (screen readers
 * announce them on navigation, and history entries are findable).
 */
export function usePageTitle(title: string | null): void {
  useEffect(() => {
    document.title = title ? `${title} · ${brand.name}` : brand.name;
  }, [title]);
}
