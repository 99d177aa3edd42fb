/**
 * The wall screen's entry: one socket that presents the stored display token on every connect, the
 * display client (pairing, token storage, snapshot), and ECharts from the portal's tree-shaken module,
 * loaded after the first paint. `?kiosk=1` hides every control and the cursor. A crash reloads the page.
 */
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { LargeScreenApp, type DisplayClient } from '../src/features/large-screen/large-screen-app';
import {
  clearDisplayToken,
  collectPairing,
  DisplayRevokedError,
  fetchDisplaySnapshot,
  loadDisplayToken,
  requestPairing,
  saveDisplayToken,
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
};

const loadCharts = () => import('../src/features/analysis/echarts-setup');
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
