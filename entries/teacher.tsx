/**
 * Composition root of the teacher portal: the session runtime (HTTP client, session actor, school-year
 * machine; see portal-runtime.ts), the client configuration, and the route table.
 */
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createBrowserRouter, RouterProvider } from 'react-router-dom';
import { PortalServicesProvider } from '../src/features/portal/portal-services';
import { clientConfigSchema, type ClientConfig } from '../src/shared/contract/system';
import { AppProviders } from '../src/shared/ui/app-providers';
import { createPortalRuntime } from './portal-runtime';
import { teacherRoutes } from './teacher-routes';

const router = createBrowserRouter(teacherRoutes);

const { http, portalServices } = createPortalRuntime({ goHome: () => void router.navigate('/', { replace: true }) });

const DEFAULT_CONFIG: ClientConfig = {
  imageBaseUrl: '/files/',
  websocketBaseUrl: '',
  captchaSiteKey: '',
  messagingAppId: '',
  dwtProductKey: '',
  filingNumber: '',
};
const config = await http.get('/api/config', undefined, { schema: clientConfigSchema, silent: true }).catch(() => DEFAULT_CONFIG);
const services = { ...portalServices(config.imageBaseUrl), filingNumber: config.filingNumber };

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <AppProviders>
      <PortalServicesProvider services={services}>
        <RouterProvider router={router} />
      </PortalServicesProvider>
    </AppProviders>
  </StrictMode>,
);
