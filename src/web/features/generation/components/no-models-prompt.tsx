import { Plus, UserRoundPlus } from 'lucide-react';
import { routes } from '../../../../common/product/routes.ts';
import { cn } from '../../../lib/cn.ts';
import { ButtonLink } from '../../../components/button-link.tsx';

/**
 * Where a model is to be chosen and the user has none yet: what to do instead, and a link to
 * create one that comes back to `returnTo` (this page) when the model is made.
 */
export function NoModelsPrompt({
  title,
  text,
  linkLabel,
  returnTo,
  relaxed = false,
}: {
  title: string;
  text: string;
  linkLabel: string;
  returnTo: string;
  /** Looser lines for the text, where it stands in a roomier card (the preset page). */
  relaxed?: boolean;
}) {
  return (
    <div className="flex items-start gap-4">
      <span className="flex size-11 shrink-0 items-center justify-center rounded-full bg-accent-50 text-accent-700">
        <UserRoundPlus aria-hidden="true" className="size-5" />
      </span>
      <div className="flex flex-col gap-1">
        <p className="font-semibold text-neutral-950">{title}</p>
        <p className={cn('text-sm', relaxed && 'leading-relaxed', 'text-neutral-600')}>{text}</p>
        <ButtonLink
          to={`${routes.createModel}?redirect=${encodeURIComponent(returnTo)}`}
          icon={Plus}
          size="sm"
          variant="outline"
          className="mt-2 self-start"
        >
          {linkLabel}
        </ButtonLink>
      </div>
    </div>
  );
}
