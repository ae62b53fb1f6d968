import { PageLink, type PageLinkProps } from './page-link.tsx';
import { commonMessages, navMessages } from '../../common/messages/shell.ts';
import { routes } from '../../common/product/routes.ts';
import { cn } from '../lib/cn.ts';

/** The mark: a portrait silhouette in the accent tile (the favicon is the same drawing). */
export function BrandMark({ className }: { className?: string }) {
  return (
    <svg viewBox="0 0 32 32" aria-hidden="true" className={cn('size-8 shrink-0', className)}>
      <rect width="32" height="32" rx="9" className="fill-accent-600" />
      <circle cx="16" cy="13" r="5" fill="#fff" />
      <path
        d="M7.5 26c1.6-4.6 4.8-7 8.5-7s6.9 2.4 8.5 7"
        fill="none"
        stroke="#fff"
        strokeWidth="2.6"
        strokeLinecap="round"
      />
    </svg>
  );
}

/**
 * Brand logo linking home; the link is named for screen readers, the mark is decorative. Extra
 * props reach the link, so it can sit inside Radix `asChild` wrappers.
 */
export function BrandLogo({ className, ...props }: Omit<PageLinkProps, 'to'>) {
  return (
    <PageLink
      to={routes.home}
      aria-label={navMessages.homeLabel}
      className={cn(
        'inline-flex items-center gap-2.5 rounded-lg text-lg font-semibold tracking-tight text-neutral-950',
        className,
      )}
      {...props}
    >
      <BrandMark />
      <span aria-hidden="true">{commonMessages.brand}</span>
    </PageLink>
  );
}
