import type { ReactNode } from 'react';
import { BackLink } from '../../../components/back-link.tsx';
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
        {back ? <BackLink to={back.to}>{back.label}</BackLink> : null}
        <PageHeader title={title} description={description} eyebrow={eyebrow} actions={actions} />
      </div>
      {children}
    </Container>
  );
}
