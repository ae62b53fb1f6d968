import { legalMessages } from '../../../../common/messages/legal.ts';
import { pageTitleMessages } from '../../../../common/messages/shell.ts';
import { usePageTitle } from '../../../lib/use-page-title.ts';
import { LegalDocument } from '../components/legal-document.tsx';

/** /terms */
export function TermsPage() {
  usePageTitle(pageTitleMessages.terms);
  return (
    <LegalDocument
      title={legalMessages.termsTitle}
      intro={legalMessages.terms.intro}
      sections={legalMessages.terms.sections}
    />
  );
}
