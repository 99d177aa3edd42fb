import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { ScanStationApp } from '../src/features/scan-station/scan-station-app';
import { AppProviders } from '../src/shared/ui/app-providers';

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <AppProviders>
      <ScanStationApp />
    </AppProviders>
  </StrictMode>,
);
