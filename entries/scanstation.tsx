/**
 * Composition root of the scan-station kiosk: the same HTTP client and persisted session as the portal
 * (a staff member logs in once; a reload keeps the session), the durable upload queue, the live socket
 * and the scanner, handed to the scan-station feature.
 */
import { useSelector } from '@xstate/react';
import { lazy, StrictMode, Suspense } from 'react';
import { createRoot } from 'react-dom/client';
import { PortalServicesProvider } from '../src/features/portal/portal-services';
import { ScanStationApp } from '../src/features/scan-station/scan-station-app';
import { ScanStationServicesProvider, type ScanStationServices } from '../src/features/scan-station/scan-station-services';
import { createUploadQueue } from '../src/shared/adapters/upload-queue';
import { AppProviders } from '../src/shared/ui/app-providers';
import { ErrorBoundary } from '../src/shared/ui/error-boundary';
import { PageLoading } from '../src/shared/ui/page-loading';
import { createPortalRuntime } from './portal-runtime';
import { createStationStorage } from './scan-station-storage';
import { lazyStationScanner } from './scanner-port';

// The login form (Semi's Form with every field type) loads only when the kiosk is logged out.
const PasswordLoginForm = lazy(() =>
  import('../src/features/portal/login-forms').then((module) => ({ default: module.PasswordLoginForm })),
);

// The kiosk has one screen: logged out, it shows the login form where it is.
const { http, session, socket, portalServices: makePortalServices } = createPortalRuntime({ goHome: () => undefined });
// The login form belongs to the portal feature and reads the portal's services.
const portalServices = makePortalServices('/files/');

const queue = createUploadQueue({ http });
queue.start();

const stationServices: ScanStationServices = {
  http,
  queue,
  socket,
  storage: createStationStorage('scanStationBatch'),
  useScanner: lazyStationScanner(http),
  stationName: '扫描站',
};

function Station() {
  const user = useSelector(session, (snapshot) => snapshot.context.session?.user ?? null);
  return (
    <ScanStationApp
      userName={user ? user.nickname : null}
      schoolName={user?.userGradeInfo.orgName ?? null}
      loginForm={
        <Suspense fallback={<PageLoading />}>
          <PasswordLoginForm />
        </Suspense>
      }
      onLogout={() => session.send({ type: 'session.logout' })}
    />
  );
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <AppProviders>
      <PortalServicesProvider services={portalServices}>
        <ScanStationServicesProvider services={stationServices}>
          <ErrorBoundary homeHref="/scanstation.html">
            <Suspense fallback={<PageLoading label="扫描站加载中…" />}>
              <Station />
            </Suspense>
          </ErrorBoundary>
        </ScanStationServicesProvider>
      </PortalServicesProvider>
    </AppProviders>
  </StrictMode>,
);
