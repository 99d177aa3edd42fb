/**
 * The scanner as the scanning workspace receives it (UseScannerPort), with its module (the scanner
 * machine, drivers, image pipeline and settings dialog: station-scanner.tsx) loaded the first time a
 * workspace asks for it, so the portal pays for the scanner only on /scan and the kiosk only once its
 * workspace shows. The workspace's nearest Suspense boundary shows the loading state meanwhile. The
 * scanning library itself (Dynamic Web TWAIN) is a further chunk, fetched by its driver.
 */
import { use } from 'react';
import type { UseScannerPort } from '../src/features/scan-station/scan-station-services';
import type { HttpClient } from '../src/shared/adapters/http-client';

export function lazyStationScanner(http: HttpClient): UseScannerPort {
  let loaded: Promise<UseScannerPort> | null = null;
  return function useLazyStationScanner(onPage, homeworkId) {
    loaded ??= import('./station-scanner').then((module) => module.createStationScanner(http));
    const useStationScanner = use(loaded);
    return useStationScanner(onPage, homeworkId);
  };
}
