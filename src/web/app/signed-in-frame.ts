// What only signed-in people (and the admin) need around their pages, gathered so the router can
// load it as one chunk: the session guard, the studio's layout and the admin gate.
export { AdminGate, AdminLayout } from '../features/admin/admin-route.tsx';
export { AppLayout } from './layouts/app-layout.tsx';
export { RequireAuth } from './require-auth.tsx';
