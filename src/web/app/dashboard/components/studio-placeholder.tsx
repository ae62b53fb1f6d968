import type { ReactNode } from 'react';
import { EmptyState } from '../../../components/ui/empty-state.tsx';

/**
 * A studio tab whose feature arrives in a later issue: it says what the tab will do and links
 * to what already exists, and offers nothing that would only pretend to work.
 */
export function StudioPlaceholder({
  icon,
  title,
  text,
  actions,
}: {
  icon: ReactNode;
  title: string;
  text: string;
  actions: ReactNode;
}) {
  return (
    <EmptyState
      icon={icon}
      title={title}
      description={text}
      action={actions}
      className="bg-white"
    />
  );
}
