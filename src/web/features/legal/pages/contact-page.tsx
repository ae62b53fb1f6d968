import { Mail } from 'lucide-react';
import { contactMessages } from '../../../../common/messages/contact.ts';
import { pageTitleMessages } from '../../../../common/messages/shell.ts';
import { Card } from '../../../components/ui/card.tsx';
import { Container } from '../../../components/ui/container.tsx';
import { PageHeader } from '../../../components/ui/page-header.tsx';
import { usePageTitle } from '../../../lib/use-page-title.ts';

const text = contactMessages;

/** /contact: one address for everything, with a mailto link. */
export function ContactPage() {
  usePageTitle(pageTitleMessages.contact);
  return (
    <Container size="sm" className="flex flex-col gap-8 py-10 md:py-16">
      <PageHeader title={text.title} description={text.intro} />
      <Card className="flex flex-col gap-6 p-6 md:p-8">
        <div className="flex items-center gap-4">
          <span className="flex size-12 shrink-0 items-center justify-center rounded-full bg-accent-50 text-accent-700">
            <Mail aria-hidden="true" className="size-5" />
          </span>
          <div className="flex min-w-0 flex-col gap-0.5">
            <p className="text-sm text-neutral-500">{text.emailLabel}</p>
            <a
              href={`mailto:${text.email}`}
              className="text-lg font-semibold break-words text-accent-700 underline-offset-4 hover:text-accent-800 hover:underline md:text-xl"
            >
              {text.email}
            </a>
          </div>
        </div>
        <ul className="flex flex-col gap-2 border-t border-neutral-200 pt-6 text-sm leading-relaxed text-neutral-600">
          <li>{text.replyTime}</li>
          <li>{text.privacyNote}</li>
          <li>{text.accountNote}</li>
        </ul>
        <p className="text-sm text-neutral-500">{text.company}</p>
      </Card>
    </Container>
  );
}
