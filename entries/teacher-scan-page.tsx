/**
 * The portal's /scan page composed from the portal (HTTP client, session, current school year) and the
 * scan-station feature: one durable upload queue for the portal, running from the first visit to /scan
 * until the tab closes (uploads go on while the teacher works elsewhere), and the scanner.
 */
import { useSelector } from '@xstate/react';
import { useMemo } from 'react';
import { useSearchParams } from 'react-router-dom';
import { usePortalServices } from '../src/features/portal/portal-services';
import { useCurrentSchoolYear } from '../src/features/portal/use-current-school-year';
import { ScanPage } from '../src/features/scan-station/scan-page';
import {
  ScanStationServicesProvider,
  type ScanStationServices,
  type UseScannerPort,
} from '../src/features/scan-station/scan-station-services';
import type { HttpClient } from '../src/shared/adapters/http-client';
import { createUploadQueue, type UploadQueue } from '../src/shared/adapters/upload-queue';
import { parsePositiveId } from '../src/shared/lib/query-param';
import { createStationStorage } from './scan-station-storage';
import { lazyStationScanner } from './scanner-port';

let portalStation: { http: HttpClient; queue: UploadQueue; useScanner: UseScannerPort } | null = null;

/** The portal's upload queue and scanner, made once per HTTP client (the scanner hook must stay the same). */
function stationFor(http: HttpClient) {
  if (portalStation?.http !== http) {
    portalStation?.queue.stop();
    portalStation = { http, queue: createUploadQueue({ http }), useScanner: lazyStationScanner(http) };
    portalStation.queue.start();
  }
  return portalStation;
}

const storage = createStationStorage('portalScanBatch');

export function TeacherScanPage() {
  const { http, session, socket } = usePortalServices();
  const { schoolYear } = useCurrentSchoolYear();
  const [searchParams] = useSearchParams();
  const nickname = useSelector(session, (snapshot) => snapshot.context.session?.user.nickname ?? '');
  const services = useMemo<ScanStationServices>(
    () => ({
      http,
      queue: stationFor(http).queue,
      socket,
      storage,
      useScanner: stationFor(http).useScanner,
      stationName: nickname ? `教师端（${nickname}）` : '教师端',
    }),
    [http, nickname, socket],
  );
  return (
    <ScanStationServicesProvider services={services}>
      <ScanPage schoolYearChosen={schoolYear !== null} homeworkId={parsePositiveId(searchParams.get('homeworkId'))} />
    </ScanStationServicesProvider>
  );
}
