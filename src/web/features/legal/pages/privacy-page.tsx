import { legalMessages } from '../../../../common/messages/legal.ts';
import { pageTitleMessages } from '../../../../common/messages/shell.ts';
import { usePageTitle } from '../../../lib/use-page-title.ts';
import { LegalDocument } from '../components/legal-document.tsx';

/**
 * /privacy. Kept out of search results, as the specification asks: React places the robots
 * meta tag in the document head while this page is shown and removes it when it is left.
 */
export function PrivacyPage() {
  usePageTitle(pageTitleMessages.privacy);
  return (
    <>
      <meta name="robots" content="noindex" />
      <LegalDocument
        title={legalMessages.privacyTitle}
        intro={legalMessages.privacy.intro}
        sections={legalMessages.privacy.sections}
      />
    </>
  );
}
