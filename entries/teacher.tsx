/**
 * Composition root of the teacher portal: builds the adapters (HTTP client, session storage), starts the
 * session actor with its real actors, provides the school-year machine, and renders the route table.
 */
import { Toast } from '@douyinfe/semi-ui-19';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createBrowserRouter, RouterProvider } from 'react-router-dom';
import { createActor, fromPromise } from 'xstate';
import { PortalServicesProvider, type PortalServices } from '../src/features/portal/portal-services';
import { schoolYearMachine } from '../src/machines/school-year.machine';
import { sessionMachine, type LoginRequest } from '../src/machines/session.machine';
import { createHttpClient, requestSignOut, requestToken } from '../src/shared/adapters/http-client';
import {
  clearSession,
  hasSessionCookies,
  loadGradeInfo,
  loadSession,
  saveGradeInfo,
  saveSession,
} from '../src/shared/adapters/session-storage';
import { currentUserSchema, tokenResponseSchema } from '../src/shared/contract/auth';
import { classListSchema, clientConfigSchema, CLASS_TYPE, type ClientConfig } from '../src/shared/contract/system';
import { AppProviders } from '../src/shared/ui/app-providers';
import { teacherRoutes } from './teacher-routes';

const router = createBrowserRouter(teacherRoutes);

const http = createHttpClient({
  getAccessToken: () => session.getSnapshot().context.session?.accessToken ?? null,
  onUnauthorized: (reason) => session.send({ type: 'session.unauthorized', reason }),
  notify: (message, durationMs) => Toast.error({ content: message, duration: durationMs / 1000 }),
});

const session = createActor(
  sessionMachine.provide({
    actors: {
      login: fromPromise(({ input }: { input: LoginRequest }) =>
        input.kind === 'register'
          ? http.postJson('/api/user/register', input.form, tokenResponseSchema)
          : requestToken(http, input.grant, { silent: false }),
      ),
      refresh: fromPromise(({ input }: { input: { refreshToken: string } }) =>
        requestToken(http, { grant_type: 'refresh_token', refresh_token: input.refreshToken }),
      ),
      signOut: fromPromise(({ input }: { input: { accessToken: string } }) => requestSignOut(http, input.accessToken)),
    },
    actions: {
      persistSession: (_, params) => saveSession(params.session),
      clearStorage: () => clearSession(),
      goHome: () => void router.navigate('/', { replace: true }),
    },
  }),
  { input: { stored: loadSession() } },
);
session.start();

const providedSchoolYearMachine = schoolYearMachine.provide({
  actors: {
    fetchSchoolYears: fromPromise(({ input }: { input: { orgId: number } }) =>
      http.get('/api/system/class', { orgId: input.orgId, type: CLASS_TYPE.schoolYear, pid: null }, classListSchema),
    ),
    saveDefault: fromPromise(async ({ input }: { input: { orgId: number; classId: number } }) => {
      await http.putForm('/api/system/class/updateClassDefault', input);
    }),
  },
  actions: {
    storeGradeInfo: (_, params) => saveGradeInfo(params),
    reloadPage: () => window.location.reload(),
  },
});

const DEFAULT_CONFIG: ClientConfig = { imageBaseUrl: '/files/', websocketBaseUrl: '', captchaSiteKey: '', messagingAppId: '' };
const config = await http.get('/api/config', undefined, { schema: clientConfigSchema, silent: true }).catch(() => DEFAULT_CONFIG);

// The stored user may be stale (a new role, another default school): refresh it once per page load.
if (session.getSnapshot().hasTag('authenticated')) {
  http
    .get('/api/user/info', undefined, { schema: currentUserSchema, silent: true })
    .then((user) => session.send({ type: 'user.updated', user }))
    .catch(() => undefined);
}

const services: PortalServices = {
  http,
  session,
  schoolYearMachine: providedSchoolYearMachine,
  hasSessionCookies,
  loadGradeInfo,
  imageBaseUrl: config.imageBaseUrl,
};

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <AppProviders>
      <PortalServicesProvider services={services}>
        <RouterProvider router={router} />
      </PortalServicesProvider>
    </AppProviders>
  </StrictMode>,
);
