/**
 * The portal's /scan page composed from the portal (HTTP client, session, current school year) and the
 * scan-station feature: one durable upload queue for the portal, running from the first visit to /scan
 * until the tab closes (uploads go on while the teacher works elsewhere), and the scanner.
 */
import { useSelector } from '@xstate/react';
import { useMemo } from 'react';
import { usePortalServices } from '../src/features/portal/portal-services';
import { useCurrentSchoolYear } from '../src/features/portal/use-current-school-year';
import { ScanPage } from '../src/features/scan-station/scan-page';
import { ScanStationServicesProvider, type ScanStationServices } from '../src/features/scan-station/scan-station-services';
import type { HttpClient } from '../src/shared/adapters/http-client';
import { createUploadQueue, type UploadQueue } from '../src/shared/adapters/upload-queue';
import { createStationStorage } from './scan-station-storage';
import { useStationScanner } from './scanner-port';

let portalQueue: { http: HttpClient; queue: UploadQueue } | null = null;

function queueFor(http: HttpClient): UploadQueue {
  if (portalQueue?.http !== http) {
    portalQueue?.queue.stop();
    portalQueue = { http, queue: createUploadQueue({ http }) };
    portalQueue.queue.start();
  }
  return portalQueue.queue;
}

const storage = createStationStorage('portalScanBatch');

export function TeacherScanPage() {
  const { http, session } = usePortalServices();
  const { schoolYear } = useCurrentSchoolYear();
  const nickname = useSelector(session, (snapshot) => snapshot.context.session?.user.nickname ?? '');
  const services = useMemo<ScanStationServices>(
    () => ({
      http,
      queue: queueFor(http),
      socket: null,
      storage,
      useScanner: useStationScanner,
      stationName: nickname ? `教师端（${nickname}）` : '教师端',
    }),
    [http, nickname],
  );
  return (
    <ScanStationServicesProvider services={services}>
      <ScanPage schoolYearChosen={schoolYear !== null} />
    </ScanStationServicesProvider>
  );
}
