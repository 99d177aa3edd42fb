import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { LargeScreenApp } from '../src/features/large-screen/large-screen-app';
import { createRealtimeSocket } from '../src/shared/adapters/realtime-socket';
import { AppProviders } from '../src/shared/ui/app-providers';

const socket = createRealtimeSocket();

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <AppProviders>
      <LargeScreenApp socket={socket} />
    </AppProviders>
  </StrictMode>,
);
