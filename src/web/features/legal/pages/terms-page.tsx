import { messages } from '../../../../common/messages.ts';
import { usePageTitle } from '../../../lib/use-page-title.ts';
import { LegalDocument } from '../components/legal-document.tsx';

/** /terms */
export function TermsPage() {
  usePageTitle(messages.pageTitles.terms);
  return (
    <LegalDocument
      title={messages.legal.termsTitle}
      intro={messages.legal.terms.intro}
      sections={messages.legal.terms.sections}
    />
  );
}
