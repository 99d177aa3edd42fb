import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { LargeScreenApp } from '../src/features/large-screen/large-screen-app';
import { createRealtimeSocket } from '../src/shared/adapters/realtime-socket';
import { AppProviders } from '../src/shared/ui/app-providers';
import { ErrorBoundary } from '../src/shared/ui/error-boundary';

const socket = createRealtimeSocket();

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <AppProviders>
      <ErrorBoundary homeHref="/largescreen.html">
        <LargeScreenApp socket={socket} />
      </ErrorBoundary>
    </AppProviders>
  </StrictMode>,
);
