/**
 * Composition root of the teacher portal: the route table, and the session runtime (HTTP client, session
 * actor, school-year machine and client configuration; teacher-runtime.ts), which is a chunk of its own:
 * fetched at once when the session cookies are there, otherwise on first need (the login box, a page
 * that reads the services), so the landing page's first view does without it.
 */
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createBrowserRouter, RouterProvider } from 'react-router-dom';
import { deferPortalServices, PortalServicesProvider } from '../src/features/portal/portal-services';
import { hasSessionCookies } from '../src/shared/adapters/session-cookies';
import { AppProviders } from '../src/shared/ui/app-providers';
import { teacherRoutes } from './teacher-routes';

const router = createBrowserRouter(teacherRoutes);

const services = deferPortalServices(
  () =>
    import('./teacher-runtime').then((module) =>
      module.startPortalRuntime({ goHome: () => void router.navigate('/', { replace: true }) }),
    ),
  hasSessionCookies,
);
// A logged-in teacher's every page needs it: fetched beside the page's own chunks. A failure is met again
// (and shown) by the first component that needs the services.
if (hasSessionCookies()) services.load().catch(() => undefined);

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <AppProviders>
      <PortalServicesProvider services={services}>
        <RouterProvider router={router} />
      </PortalServicesProvider>
    </AppProviders>
  </StrictMode>,
);
