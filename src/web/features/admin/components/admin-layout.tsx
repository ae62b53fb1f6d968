import type { ReactNode } from 'react';
import type { UseQueryResult } from '@tanstack/react-query';
import type { CatalogImage } from '../../../../common/api/catalog.ts';
import { adminPageMessages } from '../../../../common/messages/admin.ts';
import { commonMessages } from '../../../../common/messages/shell.ts';
import { Image } from '../../../components/image.tsx';
import { Badge, type BadgeVariant } from '../../../components/ui/badge.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { EmptyState } from '../../../components/ui/empty-state.tsx';
import { FormAlert } from '../../../components/ui/form-alert.tsx';
import { Skeleton, SkeletonGroup } from '../../../components/ui/skeleton.tsx';
import { cn } from '../../../lib/cn.ts';

export function PanelHeader({
  id,
  title,
  action,
}: {
  id: string;
  title: string;
  action?: ReactNode;
}) {
  return (
    <div className="flex flex-wrap items-center justify-between gap-3">
      <h2 id={id} className="text-xl font-semibold text-neutral-950">
        {title}
      </h2>
      {action}
    </div>
  );
}

/** Loading skeleton, failure with Try again, or the empty message; else the panel's content. */
export function PanelState({
  query,
  empty,
  children,
}: {
  query: Pick<UseQueryResult, 'isPending' | 'isError' | 'error' | 'refetch'>;
  empty: string | null;
  children: ReactNode;
}) {
  if (query.isPending) {
    return (
      <SkeletonGroup className="flex flex-col gap-3">
        {[0, 1, 2].map((row) => (
          <Skeleton key={row} shape="card" className="h-20 w-full" />
        ))}
      </SkeletonGroup>
    );
  }
  if (query.isError) {
    return (
      <FormAlert>
        <p>{query.error?.message || adminPageMessages.loadFailed}</p>
        <Button variant="outline" size="sm" className="mt-3" onClick={() => void query.refetch()}>
          {commonMessages.tryAgain}
        </Button>
      </FormAlert>
    );
  }
  if (empty) return <EmptyState title={empty} headingLevel="h3" className="py-10" />;
  return <>{children}</>;
}

export function AdminList({ children }: { children: ReactNode }) {
  return (
    <ul className="flex flex-col divide-y divide-neutral-200 overflow-hidden rounded-card border border-neutral-200/80 bg-white shadow-card">
      {children}
    </ul>
  );
}

export function AdminListRow({ children, dimmed }: { children: ReactNode; dimmed?: boolean }) {
  return (
    <li
      className={cn(
        'flex flex-wrap items-center gap-3 px-3 py-3 md:flex-nowrap md:gap-4 md:px-4',
        dimmed && 'bg-neutral-50',
      )}
    >
      {children}
    </li>
  );
}

/** The picture panels' grid (sample photos, quiz pictures): one `AdminTile` per picture. */
export function AdminGrid({ children }: { children: ReactNode }) {
  return <ul className="grid grid-cols-2 gap-4 md:grid-cols-3 lg:grid-cols-4">{children}</ul>;
}

/**
 * One picture of a grid, faded while inactive: the picture, then its badges (what it is, and
 * Inactive) and controls in `children`.
 */
export function AdminTile({
  image,
  alt,
  aspectRatio,
  active,
  children,
}: {
  image: CatalogImage;
  alt: string;
  aspectRatio: string;
  active: boolean;
  children: ReactNode;
}) {
  return (
    <li
      className={cn(
        'flex flex-col overflow-hidden rounded-card border border-neutral-200/80 bg-white shadow-card',
        !active && 'opacity-60',
      )}
    >
      <Image
        src={image.variants[0]?.src ?? image.src}
        alt={alt}
        width={image.width}
        height={image.height}
        aspectRatio={aspectRatio}
        className="w-full"
      />
      {children}
    </li>
  );
}

/** A tile's badges: what the picture is, and Inactive while it is not shown. */
export function AdminTileBadges({
  label,
  variant,
  active,
}: {
  label: string;
  variant: BadgeVariant;
  active: boolean;
}) {
  return (
    <div className="flex items-center gap-2">
      <Badge variant={variant}>{label}</Badge>
      {active ? null : <Badge>{adminPageMessages.inactive}</Badge>}
    </div>
  );
}

/** A list row's name, its badges (`children`), and Inactive while it is hidden. */
export function AdminRowTitle({
  name,
  active,
  children,
}: {
  name: string;
  active: boolean;
  children?: ReactNode;
}) {
  return (
    <div className="flex flex-wrap items-center gap-2">
      <h3 className="font-semibold text-neutral-950">{name}</h3>
      {children}
      {active ? null : <Badge>{adminPageMessages.inactive}</Badge>}
    </div>
  );
}
