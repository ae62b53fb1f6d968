import type { ReactNode } from 'react';
import { AppLayout } from '../../app/layouts/app-layout.tsx';
import { PublicLayout } from '../../app/layouts/public-layout.tsx';
import { PageLoading } from '../../app/layouts/page-outlet.tsx';
import { useSession } from '../../lib/session.ts';

function useIsAdmin(): boolean | 'loading' {
  const { status, user } = useSession();
  if (status === 'loading') return 'loading';
  return status === 'signed-in' && user?.role === 'admin';
}

/**
 * The layout around /admin: the studio's for an admin, the public one for everyone else (who
 * sees the ordinary 404 page there, as the API answers them 404: the area is not advertised).
 */
export function AdminLayout() {
  const admin = useIsAdmin();
  if (admin === 'loading') return <PageLoading />;
  return admin ? <AppLayout /> : <PublicLayout />;
}

/** The admin page for an admin; the 404 page for anyone else. */
export function AdminGate({ page, notFound }: { page: ReactNode; notFound: ReactNode }) {
  const admin = useIsAdmin();
  if (admin === 'loading') return null;
  return admin ? page : notFound;
}
