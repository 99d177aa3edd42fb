/**
 * What an entry hands the scanning workspace: the HTTP client, the durable upload queue, the live socket
 * (optional), where the station remembers its current batch, and the scanner (a hook the entry composes
 * from the scanner feature). Components read it through useScanStationServices(); none of them
 * constructs an adapter.
 */
import { createContext, useContext, type ReactNode } from 'react';
import type { HttpClient } from '../../shared/adapters/http-client';
import type { RealtimeEvents } from '../../shared/adapters/lazy-realtime-socket';
import type { UploadQueue } from '../../shared/adapters/upload-queue';
import type { ScannedPage } from '../../shared/contract/scan';

/** The batch the station is filling, remembered across reloads. */
export type StationBatch = { batchId: number; homeworkId: number | null };

export type StationStorage = {
  loadBatch(): StationBatch | null;
  saveBatch(batch: StationBatch | null): void;
};

/** A scanner problem the workspace explains. */
export type ScanProblemKind = 'jam' | 'doubleFeed' | 'noService' | 'noScanner' | 'other';
export type ScanProblem = { kind: ScanProblemKind; message: string };

/** The scanner as the workspace needs it. */
export type ScannerPort = {
  status: 'loading' | 'ready' | 'scanning' | 'unavailable';
  problem: ScanProblem | null;
  /** True when pages come from the simulated scanner (the one chosen in 扫描设置). */
  simulated: boolean;
  /** False until a scanner is chosen in 扫描设置: 开始扫描 then asks for one. */
  scannerChosen: boolean;
  /** True when this computer has no scanning service (Dynamic Web TWAIN): the station offers its installers. */
  serviceMissing: boolean;
  scan(): void;
  /** Stops the scan in progress (the feeder stops after the page it is transferring). */
  stop(): void;
  /** The scan settings dialog (扫描设置). */
  renderSettings(props: { visible: boolean; onClose: () => void }): ReactNode;
};

/**
 * Called once per render of the workspace; `onPage` receives every scanned page. `homeworkId` is the
 * homework being scanned (null: 按二维码识别), for a scanner that needs it (the simulated one draws its sheets).
 */
export type UseScannerPort = (onPage: (page: ScannedPage) => void, homeworkId: number | null) => ScannerPort;

export type ScanStationServices = {
  http: HttpClient;
  queue: UploadQueue;
  socket: RealtimeEvents | null;
  storage: StationStorage;
  useScanner: UseScannerPort;
  /** Written on each batch (扫描站名称): the kiosk's name or the teacher's. */
  stationName: string;
};

const ScanStationServicesContext = createContext<ScanStationServices | null>(null);

export function ScanStationServicesProvider({ services, children }: { services: ScanStationServices; children: ReactNode }) {
  return <ScanStationServicesContext.Provider value={services}>{children}</ScanStationServicesContext.Provider>;
}

export function useScanStationServices(): ScanStationServices {
  const services = useContext(ScanStationServicesContext);
  if (!services) throw new Error('useScanStationServices needs a ScanStationServicesProvider');
  return services;
}
