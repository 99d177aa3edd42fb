/**
 * The wall screen's entry: one socket that presents the stored display token on every connect, the
 * display client (pairing, token storage, snapshot), and ECharts from the portal's tree-shaken module,
 * loaded after the first paint (a failed load reloads the page once the server answers). `?kiosk=1` hides
 * every control and the cursor. A crash reloads the page. A service worker keeps the page and its assets
 * for a reboot while the server is down.
 */
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { reloadingChartsLoader } from '../src/features/large-screen/charts-loader';
import { LargeScreenApp, type DisplayClient } from '../src/features/large-screen/large-screen-app';
import {
  clearDisplayToken,
  collectPairing,
  DisplayRevokedError,
  fetchDisplaySnapshot,
  loadDisplayToken,
  loadLastSnapshot,
  requestPairing,
  saveDisplayToken,
  saveLastSnapshot,
} from '../src/shared/adapters/display-client';
import { createRealtimeSocket } from '../src/shared/adapters/realtime-socket';
import { ErrorBoundary } from '../src/shared/ui/error-boundary';

/** Nobody touches a wall screen: after a crash it shows the error, then reloads by itself. */
const RELOAD_AFTER_CRASH_MS = 30_000;

const socket = createRealtimeSocket({ getAccessToken: loadDisplayToken });

const client: DisplayClient = {
  requestPairing,
  collectPairing,
  loadToken: loadDisplayToken,
  saveToken: saveDisplayToken,
  clearToken: clearDisplayToken,
  fetchSnapshot: fetchDisplaySnapshot,
  isRevoked: (error) => error instanceof DisplayRevokedError,
  lastSnapshot: { load: loadLastSnapshot, save: saveLastSnapshot },
};

// A chunk that fails to load (network cut, a new version deployed) reloads the page once the server answers.
const loadCharts = reloadingChartsLoader(
  () => import('../src/features/analysis/echarts-setup'),
  socket,
  () => window.location.reload(),
  RELOAD_AFTER_CRASH_MS,
);
// A rebooted screen shows its display even while the server is down (public/largescreen-sw.js). Its
// scope is this page alone: the portal and the scan station are never under it.
if ('serviceWorker' in navigator) {
  navigator.serviceWorker.register('/largescreen-sw.js', { scope: '/largescreen.html' }).catch(() => undefined);
}
const kiosk = new URLSearchParams(window.location.search).get('kiosk') === '1';

createRoot(document.getElementById('root')!, {
  onCaughtError: () => setTimeout(() => window.location.reload(), RELOAD_AFTER_CRASH_MS),
}).render(
  <StrictMode>
    <ErrorBoundary homeHref="/largescreen.html">
      <LargeScreenApp socket={socket} client={client} loadCharts={loadCharts} kiosk={kiosk} />
    </ErrorBoundary>
  </StrictMode>,
);
