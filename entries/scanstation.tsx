/**
 * Composition root of the scan-station kiosk: the same HTTP client and persisted session as the portal
 * (a staff member logs in once; a reload keeps the session), the durable upload queue, the live socket
 * and the scanner, handed to the scan-station feature.
 */
import { Toast } from '@douyinfe/semi-ui-19';
import { useSelector } from '@xstate/react';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createActor, fromPromise } from 'xstate';
import { PasswordLoginForm } from '../src/features/portal/login-forms';
import { PortalServicesProvider, type PortalServices } from '../src/features/portal/portal-services';
import { ScanStationApp } from '../src/features/scan-station/scan-station-app';
import { ScanStationServicesProvider, type ScanStationServices } from '../src/features/scan-station/scan-station-services';
import { schoolYearMachine } from '../src/machines/school-year.machine';
import { sessionMachine, type LoginRequest } from '../src/machines/session.machine';
import { createHttpClient, requestSignOut, requestToken } from '../src/shared/adapters/http-client';
import { createRealtimeSocket } from '../src/shared/adapters/realtime-socket';
import {
  clearSession,
  hasSessionCookies,
  loadGradeInfo,
  loadSession,
  saveGradeInfo,
  saveSession,
} from '../src/shared/adapters/session-storage';
import { createUploadQueue } from '../src/shared/adapters/upload-queue';
import { currentUserSchema, tokenResponseSchema } from '../src/shared/contract/auth';
import { classListSchema, CLASS_TYPE } from '../src/shared/contract/system';
import { AppProviders } from '../src/shared/ui/app-providers';
import { createStationStorage } from './scan-station-storage';
import { useStationScanner } from './scanner-port';

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
      // The kiosk has one screen: logged out, it shows the login form where it is.
      goHome: () => undefined,
    },
  }),
  { input: { stored: loadSession() } },
);
session.start();

if (session.getSnapshot().hasTag('authenticated')) {
  http
    .get('/api/user/info', undefined, { schema: currentUserSchema, silent: true })
    .then((user) => session.send({ type: 'user.updated', user }))
    .catch(() => undefined);
}

// The login form belongs to the portal feature and reads the portal's services; the kiosk has no
// school-year picker, but the services carry the machine all the same.
const portalServices: PortalServices = {
  http,
  session,
  schoolYearMachine: schoolYearMachine.provide({
    actors: {
      fetchSchoolYears: fromPromise(({ input }: { input: { orgId: number } }) =>
        http.get('/api/system/class', { orgId: input.orgId, type: CLASS_TYPE.schoolYear, pid: null }, classListSchema),
      ),
      saveDefault: fromPromise(async ({ input }: { input: { orgId: number; classId: number } }) => {
        await http.putForm('/api/system/class/updateClassDefault', input);
      }),
    },
    actions: { storeGradeInfo: (_, params) => saveGradeInfo(params), reloadPage: () => window.location.reload() },
  }),
  hasSessionCookies,
  loadGradeInfo,
  imageBaseUrl: '/files/',
};

const queue = createUploadQueue({ http });
queue.start();

const socket = createRealtimeSocket({ getAccessToken: () => session.getSnapshot().context.session?.accessToken ?? null });
// A login (or a refreshed token) should put the socket in the school's room.
let lastToken: string | null = session.getSnapshot().context.session?.accessToken ?? null;
session.subscribe((snapshot) => {
  const token = snapshot.context.session?.accessToken ?? null;
  if (token === lastToken) return;
  lastToken = token;
  socket.disconnect().connect();
});

const stationServices: ScanStationServices = {
  http,
  queue,
  socket,
  storage: createStationStorage('scanStationBatch'),
  useScanner: useStationScanner,
  stationName: '扫描站',
};

function Station() {
  const user = useSelector(session, (snapshot) => snapshot.context.session?.user ?? null);
  return (
    <ScanStationApp
      userName={user ? user.nickname : null}
      schoolName={user?.userGradeInfo.orgName ?? null}
      loginForm={<PasswordLoginForm />}
      onLogout={() => session.send({ type: 'session.logout' })}
    />
  );
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <AppProviders>
      <PortalServicesProvider services={portalServices}>
        <ScanStationServicesProvider services={stationServices}>
          <Station />
        </ScanStationServicesProvider>
      </PortalServicesProvider>
    </AppProviders>
  </StrictMode>,
);
