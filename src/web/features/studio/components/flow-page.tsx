import type { ReactNode } from 'react';
import { ArrowLeft } from 'lucide-react';
import { Link } from 'react-router';
import { Button } from '../../../components/ui/button.tsx';
import { Container } from '../../../components/ui/container.tsx';
import { PageHeader } from '../../../components/ui/page-header.tsx';

/** The model-creation screens: one column, a way back, the screen's title and its content. */
export function FlowPage({
  title,
  description,
  eyebrow,
  back,
  actions,
  children,
  size = 'md',
}: {
  title: ReactNode;
  description?: ReactNode;
  eyebrow?: ReactNode;
  back?: { to: string; label: string };
  actions?: ReactNode;
  children: ReactNode;
  size?: 'sm' | 'md' | 'lg';
}) {
  return (
    <Container size={size} className="flex flex-col gap-8 py-8 md:gap-10 md:py-12">
      <div className="flex flex-col gap-4">
        {back ? (
          <Button asChild variant="ghost" size="sm" className="-ml-3 self-start">
            <Link to={back.to}>
              <ArrowLeft aria-hidden="true" className="size-4" />
              {back.label}
            </Link>
          </Button>
        ) : null}
        <PageHeader title={title} description={description} eyebrow={eyebrow} actions={actions} />
      </div>
      {children}
    </Container>
  );
}
