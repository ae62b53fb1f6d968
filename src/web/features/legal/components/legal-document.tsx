import { legalMessages } from '../../../../common/messages/legal.ts';
import { contact } from '../../../../common/product/brand.ts';
import { Container } from '../../../components/ui/container.tsx';

export interface LegalSection {
  /** The section's anchor, for the contents list and for links from elsewhere. */
  id: string;
  heading: string;
  paragraphs: readonly string[];
  list?: readonly string[];
  /** Paragraphs after the list. */
  after?: readonly string[];
}

export interface LegalDocumentProps {
  title: string;
  intro: string;
  sections: readonly LegalSection[];
}

const text = legalMessages;

/**
 * A legal text (terms, privacy) set for reading: one comfortable column, a contents list to
 * jump to a section, and who to write to at the end.
 */
export function LegalDocument({ title, intro, sections }: LegalDocumentProps) {
  return (
    <Container size="sm" className="py-10 md:py-16">
      <article className="flex flex-col gap-10">
        <header className="flex flex-col gap-4">
          <h1 className="text-3xl font-semibold text-neutral-950 md:text-4xl">{title}</h1>
          <p className="text-sm text-neutral-500">{text.lastUpdated}</p>
          <p className="text-lg leading-relaxed text-neutral-700">{intro}</p>
        </header>

        <nav
          aria-labelledby="legal-contents"
          className="rounded-card border border-neutral-200/80 bg-white p-6 shadow-card"
        >
          <h2 id="legal-contents" className="text-sm font-semibold text-neutral-950">
            {text.contents}
          </h2>
          <ol className="mt-3 grid gap-x-6 gap-y-2 text-sm sm:grid-cols-2">
            {sections.map((section) => (
              <li key={section.id}>
                <a
                  href={`#${section.id}`}
                  className="rounded text-neutral-600 underline-offset-4 transition-colors hover:text-neutral-950 hover:underline"
                >
                  {section.heading}
                </a>
              </li>
            ))}
          </ol>
        </nav>

        {sections.map((section) => (
          <section
            key={section.id}
            id={section.id}
            aria-labelledby={`${section.id}-heading`}
            className="flex scroll-mt-6 flex-col gap-4"
          >
            <h2 id={`${section.id}-heading`} className="text-xl font-semibold text-neutral-950">
              {section.heading}
            </h2>
            {section.paragraphs.map((paragraph) => (
              <p key={paragraph} className="leading-relaxed text-neutral-700">
                {paragraph}
              </p>
            ))}
            {section.list ? (
              <ul className="flex list-disc flex-col gap-2 pl-5 leading-relaxed text-neutral-700 marker:text-accent-600">
                {section.list.map((item) => (
                  <li key={item}>{item}</li>
                ))}
              </ul>
            ) : null}
            {section.after?.map((paragraph) => (
              <p key={paragraph} className="leading-relaxed text-neutral-700">
                {paragraph}
              </p>
            ))}
          </section>
        ))}

        <footer className="flex flex-col gap-1 border-t border-neutral-200 pt-8 text-neutral-700">
          <p className="font-semibold text-neutral-950">{text.questions}</p>
          <p>
            {text.writeToUs}{' '}
            <a
              href={`mailto:${contact.infoEmail}`}
              className="font-medium text-accent-700 underline underline-offset-4 hover:text-accent-800"
            >
              {contact.infoEmail}
            </a>
          </p>
          <p className="text-sm text-neutral-500">{contact.companyLine}</p>
        </footer>
      </article>
    </Container>
  );
}
