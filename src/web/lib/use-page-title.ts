import { useEffect } from 'react';
import { pageTitleMessages } from '../../common/messages/shell.ts';

export interface PageTitleOptions {
  /** Use the title as it is, without the brand suffix (the home page's title names the brand). */
  exact?: boolean;
}

/**
 * Sets the tab title for the page that calls it: `usePageTitle('Pricing')` gives "Pricing" plus
 * the brand suffix from messages/shell.ts. Each page names itself, so titles differ per route (screen
 * readers announce them on navigation, and history entries stay findable).
 */
export function usePageTitle(title: string, { exact = false }: PageTitleOptions = {}): void {
  useEffect(() => {
    document.title = exact ? title : pageTitleMessages.suffix(title);
  }, [title, exact]);
}
