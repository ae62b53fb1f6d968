import { BrowserRouter, Navigate, Route, Routes } from 'react-router';
import { dashboardQuery, routes } from '../../common/product.ts';
import { AppLayout } from './layouts/app-layout.tsx';
import { PublicLayout } from './layouts/public-layout.tsx';
import { lazyPage } from './lazy-page.ts';
import { RequireAuth } from './require-auth.tsx';
import { ScrollManager } from './scroll-manager.tsx';

const HomePage = lazyPage(() => import('../features/landing/pages/home-page.tsx'), 'HomePage');
const NotFoundPage = lazyPage(() => import('./not-found-page.tsx'), 'NotFoundPage');

/** /history and /generations: the dashboard's "generated" tab. */
const generatedTab = `${routes.dashboard}?main=${dashboardQuery.defaultMain}&sub=generated`;

/**
 * Every route of the app. Pages are declared here as they are built; until then their paths
 * fall through to the 404 page. Layouts are pathless parent routes:
 * - PublicLayout: landing, legal pages, contact, quiz, public try-on, 404.
 * - PlainLayout (./layouts/plain-layout.tsx): auth screens and payment returns.
 * - RequireAuth > AppLayout: the signed-in pages listed in `protectedRoutes` (product.ts).
 */
export function AppRouter() {
  return (
    <BrowserRouter>
      <ScrollManager />
      <Routes>
        <Route element={<PublicLayout />}>
          <Route index element={<HomePage />} />
          <Route path="*" element={<NotFoundPage />} />
        </Route>

        <Route path={routes.history} element={<Navigate to={generatedTab} replace />} />
        <Route path={routes.generations} element={<Navigate to={generatedTab} replace />} />

        <Route element={<RequireAuth />}>
          <Route element={<AppLayout />}>
            {/* Signed-in pages (dashboard, studio, account, billing) are declared here. */}
          </Route>
        </Route>
      </Routes>
    </BrowserRouter>
  );
}
